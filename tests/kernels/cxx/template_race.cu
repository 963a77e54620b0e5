// expect: race on out
// --blockDim=256 --gridDim=8 --kernel=copy_strided<128,float>
// The same template instantiated with a BLOCK smaller than the launch's block: blocks overlap.
template <int BLOCK, typename T>
__global__ void copy_strided(const T *in, T *out) {
  unsigned i = blockIdx.x * BLOCK + threadIdx.x;
  out[i] = in[i];
}
