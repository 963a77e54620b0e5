// expect: verified
// --blockDim=64 --gridDim=4
// llm.c's `(floatX)value` casts in a file that includes cooperative groups: CUDA 12's
// cooperative_groups.h includes cuda_bf16.h, so the bf16 record and its constructors come from
// the precompiled header, not from the file's AST. Each thread writes its own element.
#include <cooperative_groups.h>
#include <cuda_bf16.h>
typedef __nv_bfloat16 floatX;

__global__ void k(floatX *out, const floatX *in, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = (float)in[i] * scale;
    out[i] = (floatX)v;
  }
}
