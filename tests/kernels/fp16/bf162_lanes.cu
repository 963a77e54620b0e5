// expect: verified
// --blockDim=64 --gridDim=4 --gpu-arch=sm_80
// __nv_bfloat162 pairs built from two bf16 values, added, and split into lanes and floats;
// thread i owns the 4 bytes of out2[i] and the 2 bytes of lo[i].
#include <cuda_bf16.h>

__global__ void k(__nv_bfloat162 *out2, __nv_bfloat16 *lo, float *f, const __nv_bfloat16 *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __nv_bfloat162 p = __halves2bfloat162(a[2 * i], a[2 * i + 1]);
  out2[i] = p + p;
  lo[i] = out2[i].x;
  f[i] = __low2float(p) + __high2float(p) + __bfloat162float(p.y);
}
