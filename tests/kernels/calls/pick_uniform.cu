// expect: verified
// --blockDim=64 --gridDim=1
// Every thread calls `pick` with the same argument, so every thread gets the same `j`: the
// writes stay one per thread. `printf` is ignored.
#include <stdio.h>

__device__ int pick(int i);

__global__ void k(int *a, int n) {
  int j = pick(n + 7);
  printf("j = %d\n", j);
  a[threadIdx.x + j * blockDim.x] = 1;
}
