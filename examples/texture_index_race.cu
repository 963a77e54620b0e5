// expect: race
// --blockDim=64 --gridDim=4
#include <cuda.h>

texture<int, 1, cudaReadModeElementType> perm;

// The texels are unknown: two threads may fetch the same index and write the
// same element of `out` (a permutation gpug cannot know is one).
__global__ void texture_index_race(float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = tex1Dfetch(perm, i);
    out[j] = 1.0f;
}
