// expect: assertion
// --blockDim=64 --gridDim=1
// Inside the branch only half of the threads are enabled: `__uniform_bool(__enabled())` fails
// for a pair across the halves.
__global__ void k(int *A) {
  if (threadIdx.x < 32) {
    __assert(__uniform_bool(__enabled()));
  }
  A[threadIdx.x] = 0;
}
