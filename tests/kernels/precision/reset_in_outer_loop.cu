#include <cuda.h>

// A variable reset inside an abstracted outer loop (issue 43, item 5): the outer loop havocs
// j at its head, and `j = 0` makes it known again; the inner loop (abstracted too) counts it
// up to TILE, so each thread writes and reads its own s[threadIdx.x].
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
        s[threadIdx.x + j - TILE] = 1;
        out[k + threadIdx.x] = s[threadIdx.x];
        __syncthreads();
    }
}
