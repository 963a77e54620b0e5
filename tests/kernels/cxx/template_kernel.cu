// expect: verified
// --blockDim=256 --gridDim=8 --kernel=copy_strided<256,float>
// A template kernel chosen with `--kernel` (no instantiation in the file): each thread copies
// its own element, the block size a template argument.
template <int BLOCK, typename T>
__global__ void copy_strided(const T *in, T *out) {
  unsigned i = blockIdx.x * BLOCK + threadIdx.x;
  out[i] = in[i];
}
