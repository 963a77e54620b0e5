// expect: divergence
// --blockDim=64 --gridDim=4
#include <cuda.h>

// Only the first 16 threads of a block reach the barrier: barrier divergence.
// (Apart from that the kernel is race-free: the 16 threads write s[0..15],
// synchronise among themselves, and read s[15 - t].)
__global__ void divergent_barrier(float *data) {
    __shared__ float s[16];
    unsigned t = threadIdx.x;
    unsigned g = blockIdx.x * blockDim.x + t;
    if (t < 16) {
        s[t] = data[g];
        __syncthreads();
        data[g] = s[15 - t];
    }
}
