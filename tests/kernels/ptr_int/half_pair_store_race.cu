// expect: race on sums
// --blockDim=128 --gridDim=1
// half_pair_atomic.cu with the atomic replaced by a plain store of the pair: threads 2k and
// 2k + 1 own distinct elements, but the 32-bit store of each covers its neighbour's too.
#include <cuda_fp16.h>
#include <stdint.h>

__device__ void store_half(half *addr, half val) {
  uintptr_t ptr_val = reinterpret_cast<uintptr_t>(addr);
  half2 *ptr_fp16 = reinterpret_cast<half2 *>(ptr_val & ~uintptr_t(0x3));
  half2 pair = (ptr_val & 0x3) ? __halves2half2(__ushort_as_half(0), val)
                               : __halves2half2(val, __ushort_as_half(0));
  *ptr_fp16 = pair;
}

__global__ void half_pair_store_race(half *sums, const half *in) {
  int i = threadIdx.x;
  store_half(&sums[i], in[i]);
}
