// expect: verified
// --blockDim=64 --gridDim=4
// Each thread converts its own float to bf16 and back: 2-byte elements, no overlap.
#include <cuda_bf16.h>

__global__ void k(__nv_bfloat16 *out, const float *in, float *back, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __nv_bfloat16 b = __float2bfloat16(in[i]);
    out[i] = b;
    back[i] = __bfloat162float(out[i]);
  }
}
