// expect: race on out
// --blockDim=64 --gridDim=4
// An index computed from a bf16 value: the conversion is uninterpreted, so two threads may
// compute the same index. Each stores its own index (threads storing one constant would be a
// benign race: the toolkit's conversions are functions of their arguments).
#include <cuda_bf16.h>

__global__ void k(float *out, const __nv_bfloat16 *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = (int)__bfloat162float(in[i]);
  out[j & 63] = i;
}
