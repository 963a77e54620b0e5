// expect: assertion
// --blockDim=64 --gridDim=1
// Thread 4's partner may be thread 5.
__global__ void k(int *A) {
  __assert(__implies(threadIdx.x == 4, __other_int(threadIdx.x) != 5));
  A[threadIdx.x] = 0;
}
