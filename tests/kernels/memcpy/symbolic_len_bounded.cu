// expect: verified
// --blockDim=32 --gridDim=1
// The same length, required to be at most the element size.
__global__ void k(const int *in, int *out, size_t n) {
  __requires(n <= sizeof(int));
  memcpy(&out[threadIdx.x], &in[threadIdx.x], n);
}
