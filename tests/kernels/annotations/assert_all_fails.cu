// expect: assertion
// --blockDim=64 --gridDim=2
// `__all(b)` is `b` in both threads of the pair: false for a pair with one thread above 31.
__global__ void k(int *A) {
  __assert(__all(threadIdx.x < blockDim.x));
  __assert(__all(threadIdx.x < 32));
  A[blockIdx.x * blockDim.x + threadIdx.x] = 0;
}
