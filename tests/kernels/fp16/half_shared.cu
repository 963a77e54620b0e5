// expect: verified
// --blockDim=64 --gridDim=4
// A __shared__ array of half and one of bf16: each thread writes its own element, then after
// the barrier reads its neighbour's.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void k(float *out, const __half *in) {
  __shared__ __half s[64];
  __shared__ __nv_bfloat16 b[64];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  b[t] = __float2bfloat16(__half2float(s[t]));
  __syncthreads();
  out[blockIdx.x * 64 + t] = __half2float(s[(t + 1) % 64]) + __bfloat162float(b[63 - t]);
}
