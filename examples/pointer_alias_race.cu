// expect: race
// --blockDim=64 --gridDim=1
#include <cuda.h>

// A shift by one through an alias of `a`: thread t reads a[t] while thread t-1
// writes p[t-1], which is the same element a[t].
__global__ void pointer_alias_race(int *a) {
    int *p = a + 1;
    p[threadIdx.x] = a[threadIdx.x];
}
