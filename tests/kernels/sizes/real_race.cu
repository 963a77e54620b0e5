// expect: race on a
// --solver z3
// A real race in every launch of two threads or more (all write a[0]) is reported as a
// defect, not listed apart with the sizes the program cannot have.
__global__ void last(unsigned *a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  a[0] = i;
}
