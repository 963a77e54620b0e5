// expect: race on out
// --blockDim=64 --gridDim=4
// As bf16_cast_with_groups.cu, with neighbouring threads converting different values into
// one element: a real write-write race.
#include <cooperative_groups.h>
#include <cuda_bf16.h>
typedef __nv_bfloat16 floatX;

__global__ void k(floatX *out, const floatX *in, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = (float)in[i] * scale;
    out[i / 2] = (floatX)v;
  }
}
