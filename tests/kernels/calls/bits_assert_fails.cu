// expect: fails
// --blockDim=1 --gridDim=1
// `gpug check`: popc of 0xffffffff is 32, not less.
#include <assert.h>

__global__ void k(unsigned x) {
  assert(__popc(x) < 32);
}
