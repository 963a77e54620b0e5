// expect: race on out
// --blockDim=64 --gridDim=4
// Each thread writes its own half and its right neighbour's: 2-byte elements overlap.
#include <cuda_fp16.h>

__global__ void k(__half *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __float2half(in[i]);
  out[i + 1] = __hmul(out[i], __float2half(0.5f));
}
