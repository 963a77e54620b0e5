// expect: verified
// --blockDim=256 --gridDim=32
#include <cuda.h>

#define BINS 64

// Per-block histogram in shared memory, merged into the global one. All updates
// of shared and global bins in the same barrier interval are atomicAdds.
__global__ void histogram_atomic(const unsigned char *in, unsigned *hist) {
    __shared__ unsigned bins[BINS];
    unsigned t = threadIdx.x;
    if (t < BINS) bins[t] = 0;
    __syncthreads();
    unsigned v = in[blockIdx.x * blockDim.x + t];
    atomicAdd(&bins[v % BINS], 1u);
    __syncthreads();
    if (t < BINS) atomicAdd(&hist[t], bins[t]);
}
