// expect: race on out
// --blockDim=64 --gridDim=4
// As bf16_cache_hints.cu, with two threads storing to each element.
#include <cuda_bf16.h>
__global__ void stream_copy(__nv_bfloat16 *out, const __nv_bfloat16 *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) __stcs(out + i / 2, __ldcs(in + i));
}
