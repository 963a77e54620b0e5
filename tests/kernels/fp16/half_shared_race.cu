// expect: race on b
// --blockDim=64 --gridDim=4
// The same without the barrier: a thread reads the bf16 element another writes.
#include <cuda_bf16.h>

__global__ void k(float *out, const float *in) {
  __shared__ __nv_bfloat16 b[64];
  int t = threadIdx.x;
  b[t] = __float2bfloat16(in[blockIdx.x * 64 + t]);
  out[blockIdx.x * 64 + t] = __bfloat162float(b[63 - t]);
}
