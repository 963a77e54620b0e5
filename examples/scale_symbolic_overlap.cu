// expect: race
// --blockDim=[*,1,1] --gridDim=[*,1,1] --no-overflow
// expect: race
// --blockDim=[*,1,1] --gridDim=[*,1,1]
#include <cuda.h>

// Blocks advance by half a block: the second half of block b and the first half of block b+1
// scale the same elements. A race in every launch with two blocks of two threads or more,
// with or without --no-overflow.
__global__ void scale_overlap(float *v, float s, int n) {
    int i = blockIdx.x * (blockDim.x / 2) + threadIdx.x;
    if (i < n) {
        v[i] = s * v[i];
    }
}
