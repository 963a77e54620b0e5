// expect: assertion
// --blockDim=64 --gridDim=1
// A plain unsigned sum may wrap: the assertion of `add_noovfl_sum.cu` fails here.
__global__ void k(unsigned *A, unsigned x, unsigned y) {
  unsigned z = x + y;
  __assert(z >= x && z >= y);
  A[threadIdx.x] = z;
}
