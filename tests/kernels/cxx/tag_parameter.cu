// expect: verified
// --blockDim=64 --gridDim=4
// An unnamed parameter of a tag type chosen by overloading (`std::bool_constant<Atomic>`): it
// cannot be read, and each thread writes its own element.
#include <type_traits>
template <bool Scale>
__global__ void apply(float *out, int n, std::bool_constant<Scale>) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Scale ? 2.0f * out[i] : out[i];
}
template __global__ void apply<true>(float *, int, std::bool_constant<true>);
