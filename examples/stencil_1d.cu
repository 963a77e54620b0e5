// expect: verified
// --blockDim=128 --gridDim=32
#include <cuda.h>

#define RADIUS 3
#define BLOCK 128

// out[g] = sum of in'[g - RADIUS .. g + RADIUS], where `in` carries RADIUS
// padding elements on each side (in'[j] is in[j + RADIUS]). A block stages its
// BLOCK elements plus RADIUS halo cells on each side in shared memory; the
// first RADIUS threads also load the two halos. Slots written: main [3, 130],
// left halo [0, 2], right halo [131, 133] -- pairwise disjoint.
__global__ void stencil_1d(const int *in, int *out) {
    __shared__ int window[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * BLOCK + threadIdx.x;
    int l = threadIdx.x + RADIUS;

    window[l] = in[g + RADIUS];
    if (threadIdx.x < RADIUS) {
        window[l - RADIUS] = in[g];
        window[l + BLOCK] = in[g + RADIUS + BLOCK];
    }
    __syncthreads();

    int sum = 0;
    for (int k = -RADIUS; k <= RADIUS; k++)
        sum += window[l + k];
    out[g] = sum;
}
