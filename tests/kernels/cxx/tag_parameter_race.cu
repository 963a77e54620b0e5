// expect: race on out
// --blockDim=64 --gridDim=4
// As tag_parameter.cu, with the index forgetting the block.
#include <type_traits>
template <bool Scale>
__global__ void apply(float *out, int n, std::bool_constant<Scale>) {
  int i = threadIdx.x;
  if (i < n) out[i] = Scale ? 2.0f * out[i] : out[i];
}
template __global__ void apply<true>(float *, int, std::bool_constant<true>);
