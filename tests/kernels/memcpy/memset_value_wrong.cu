// expect: assertion
// --blockDim=32 --gridDim=1
// The same, with an assertion that forgets the truncation to a byte.
__global__ void k(unsigned *out, unsigned seed) {
  memset(&out[threadIdx.x], seed, 1);
  __assert((out[threadIdx.x] & 0xff) == seed);
}
