// expect: race
// --blockDim=64 --gridDim=4
#include <cuda.h>

texture<int, 1, cudaReadModeElementType> perm;

// The texels are unknown: two threads may fetch the same index and write their
// own index to the same element of `out` (a permutation gpug cannot know is one).
// Were both to write one value (`out[j] = 1`), the race would be benign.
__global__ void texture_index_race(int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = tex1Dfetch(perm, i);
    out[j] = i;
}
