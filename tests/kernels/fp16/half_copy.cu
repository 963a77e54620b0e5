// expect: verified
// --blockDim=64 --gridDim=4
// half arithmetic and conversions per element.
#include <cuda_fp16.h>

__global__ void k(__half *out, const __half *a, const __half *b, float *f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half s = __hadd(a[i], b[i]);
  __half p = __hmul(a[i], b[i]);
  out[i] = __hfma(s, p, a[i]) + s * p - a[i] / b[i];
  f[i] = __half2float(out[i]) + (float)s;
  if (a[i] < b[i]) f[i] = __half2float(__float2half(1.0f));
}
