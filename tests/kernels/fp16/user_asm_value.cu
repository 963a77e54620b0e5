// expect: verified
// --blockDim=64 --gridDim=4
// Inline assembly in the kernel's own code that only computes a value: an uninterpreted
// function of its inputs, stored where the thread's own index says.
#include <cuda_fp16.h>

__global__ void k(unsigned *out, const __half *in) {
  unsigned x = __half_as_ushort(in[threadIdx.x]);
  unsigned y;
  asm("add.u32 %0, %1, 1;" : "=r"(y) : "r"(x));
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[blockIdx.x * blockDim.x + threadIdx.x] = y + lane;
}
