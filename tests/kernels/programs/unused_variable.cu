// Race-free, with an unused variable: refused only when --clang-arg makes clang's warning an error.
__global__ void copy(int *out, const int *in) {
  int unused = 3;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
