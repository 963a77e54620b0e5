// expect: race on out
// --blockDim=32 --gridDim=1
// A length given by the caller: with n > 4 the copies overlap.
__global__ void k(const int *in, int *out, size_t n) {
  memcpy(&out[threadIdx.x], &in[threadIdx.x], n);
}
