// expect: assertion
// --blockDim=32 --gridDim=1
// memset of `(void *)0` with a length that may be non-zero.
__global__ void k(size_t n) {
  memset((void *)0, 0, n);
}
