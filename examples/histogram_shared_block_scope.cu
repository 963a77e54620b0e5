// expect: verified
// --blockDim=256 --gridDim=32
#include <cuda.h>

// A per-block histogram in __shared__ memory updated with atomicAdd_block, then merged into
// the global one with the device-scope atomicAdd (issue 22). A __shared__ array is only ever
// seen by the threads of one block, so block scope is all its atomics need; the merge crosses
// blocks and needs device scope.
#define BINS 64

__global__ void histogram_shared(const unsigned char *in, unsigned *hist, int n) {
    __shared__ unsigned bins[BINS];
    unsigned t = threadIdx.x;
    if (t < BINS) {
        bins[t] = 0;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) {
        atomicAdd_block(&bins[in[i] % BINS], 1u);
    }
    __syncthreads();
    if (t < BINS) {
        atomicAdd(&hist[t], bins[t]);
    }
}
