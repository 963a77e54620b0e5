// expect: verified
// --blockDim=64 --gridDim=4
// A 16-byte struct of eight bf16 values, loaded and stored whole through a cast of the element
// pointer: thread i owns elements 8i to 8i+7, and alters one lane in a local copy.
#include <cuda_bf16.h>

struct alignas(16) Pack {
  __nv_bfloat16 x[8];
};

__global__ void k(__nv_bfloat16 *out, const __nv_bfloat16 *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Pack p = *reinterpret_cast<const Pack *>(in + 8 * i);
  for (int j = 0; j < 8; j++) {
    p.x[j] = __float2bfloat16(__bfloat162float(p.x[j]) * 2.0f);
  }
  *reinterpret_cast<Pack *>(out + 8 * i) = p;
}
