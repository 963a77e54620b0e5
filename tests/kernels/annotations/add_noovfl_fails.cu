// expect: assertion
// --blockDim=64 --gridDim=1
// Without a bound on `n`, `n + 1` may overflow.
__global__ void k(int *A, int n) {
  __assert(__add_noovfl(n, 1));
  A[threadIdx.x] = n;
}
