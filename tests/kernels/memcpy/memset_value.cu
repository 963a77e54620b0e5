// expect: verified
// --blockDim=32 --gridDim=1
// memset with a value computed at run time, truncated to a byte: each byte of the thread's own
// int holds it, which the assertion checks through the int it makes.
__global__ void k(unsigned *out, unsigned seed) {
  memset(&out[threadIdx.x], seed + threadIdx.x, sizeof(unsigned));
  unsigned b = (seed + threadIdx.x) & 0xff;
  __assert(out[threadIdx.x] == (b | (b << 8) | (b << 16) | (b << 24)));
}
