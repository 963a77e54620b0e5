// expect: inconclusive
// --blockDim=2 --gridDim=1
// `gpug check`: whether `pick(x) != 3` holds depends on `pick`, which has no body.
#include <assert.h>

__device__ int pick(int i);

__global__ void k(int x) {
  assert(pick(x) != 3);
}
