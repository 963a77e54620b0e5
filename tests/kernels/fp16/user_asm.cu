// expect: unsupported at 9:3
// --blockDim=64 --gridDim=4
// Inline assembly in the kernel's own code stays refused, even one that only computes.
#include <cuda_fp16.h>

__global__ void k(unsigned *out, const __half *in) {
  unsigned x = __half_as_ushort(in[threadIdx.x]);
  unsigned y;
  asm("add.u32 %0, %1, 1;" : "=r"(y) : "r"(x));
  out[threadIdx.x] = y;
}
