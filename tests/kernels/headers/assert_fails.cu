// glibc's assert, as NVIDIA's headers leave it: fails for the threads past the first warp.
#include <assert.h>

__global__ void check(int *a) {
  assert(threadIdx.x < 32);
  a[threadIdx.x] = 0;
}
