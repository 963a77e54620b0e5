// expect: verified
// --blockDim=32 --gridDim=1
// The bytes copied are the source's: the int read back equals the one copied, and the last
// two bytes of a partial copy are the destination's own.
__global__ void k(const int *in, int *out) {
  int old = out[threadIdx.x];
  memcpy(&out[threadIdx.x], &in[threadIdx.x], 2);
  __assert((out[threadIdx.x] & 0xffff) == (in[threadIdx.x] & 0xffff));
  __assert((out[threadIdx.x] >> 16) == (old >> 16));
}
