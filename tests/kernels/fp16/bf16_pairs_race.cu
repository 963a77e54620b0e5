// expect: race on out
// --blockDim=64 --gridDim=4
// Two threads write the same bf16 element out[i/2].
#include <cuda_bf16.h>

__global__ void k(__nv_bfloat16 *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i / 2] = __float2bfloat16(in[i]);
}
