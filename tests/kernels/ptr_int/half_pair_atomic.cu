// expect: verified
// --blockDim=128 --gridDim=4
// llm.c's `atomicAddX` (dev/cuda/layernorm_backward.cu): a 16-bit add done by a 32-bit atomic
// on the aligned pair that holds the element, the other half added zero. Every thread adds into
// one of 64 sums, atomically.
#include <cuda_fp16.h>
#include <stdint.h>

__device__ void add_half(half *addr, half val) {
  uintptr_t ptr_val = reinterpret_cast<uintptr_t>(addr);
  half2 *ptr_fp16 = reinterpret_cast<half2 *>(ptr_val & ~uintptr_t(0x3));
  half2 add_val = (ptr_val & 0x3) ? __halves2half2(__ushort_as_half(0), val)
                                  : __halves2half2(val, __ushort_as_half(0));
  atomicAdd(ptr_fp16, add_val);
}

__global__ void half_pair_atomic(half *sums, const half *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    add_half(&sums[i % 64], in[i]);
  }
}
