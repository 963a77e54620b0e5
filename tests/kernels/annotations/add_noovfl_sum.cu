// expect: verified
// --blockDim=64 --gridDim=1
// `__add_noovfl_unsigned_int(x, y)` is `x + y`, assuming it does not wrap (Chong et al. (OOPSLA 2013) section 5):
// then the sum is at least each operand.
__global__ void k(unsigned *A, unsigned x, unsigned y) {
  unsigned z = __add_noovfl_unsigned_int(x, y);
  __assert(z >= x && z >= y);
  A[threadIdx.x] = z;
}
