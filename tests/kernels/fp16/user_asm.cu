// expect: unsupported at 9:3
// --blockDim=64 --gridDim=4
// Inline assembly in the kernel's own code that touches memory stays refused.
#include <cuda_fp16.h>

__global__ void k(unsigned *out, const __half *in) {
  unsigned x = __half_as_ushort(in[threadIdx.x]);
  unsigned *p = out + threadIdx.x;
  asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(x) : "memory");
}
