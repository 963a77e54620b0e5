// expect: verified
// --solver z3
// Each thread writes its own element at its linear thread index. Two threads share one only
// when gridDim.x * blockDim.x exceeds 2^32 and the unsigned index wraps: a launch the program
// cannot have (a 2^32-element array), listed apart with that condition; --strict reports it.
__global__ void fill(unsigned *a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = blockIdx.x;
}
