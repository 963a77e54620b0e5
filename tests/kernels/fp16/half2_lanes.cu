// expect: verified
// --blockDim=64 --gridDim=4
// half2 lanes are 2 bytes apart: even threads write lane x of v[i/2], odd threads lane y. The
// lanes' values come from half2 arithmetic and conversions.
#include <cuda_fp16.h>

__global__ void k(__half2 *v, const __half2 *a, float *f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 s = __hadd2(a[i], __floats2half2_rn(1.0f, 2.0f));
  f[i] = __low2float(s) + __high2float(s);
  if (i % 2 == 0) {
    v[i / 2].x = __low2half(s);
  } else {
    v[i / 2].y = __high2half(s);
  }
}
