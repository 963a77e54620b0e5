#include <cuda.h>

// As reset_in_outer_loop.cu, but each thread writes its neighbour's s[threadIdx.x + 1], which
// the neighbour reads in the same barrier interval: a race.
#define TILE 256
__global__ void tiles(int *out, const int *in, int n) {
    __shared__ int s[TILE];
    int j = 0;
    for (int k = 0; k < n; k += TILE) {
        j = 0;
        s[threadIdx.x] = in[k + threadIdx.x];
        __syncthreads();
        for (int t = 0; t < TILE; t++) {
            j = j + 1;
        }
        s[threadIdx.x + j - TILE + 1] = 1;
        out[k + threadIdx.x] = s[threadIdx.x];
        __syncthreads();
    }
}
