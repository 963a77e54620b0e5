// expect: verified
// --blockDim=256 --gridDim=64
#include <cuda.h>

// Tree reduction in shared memory: each block sums its 256 inputs and thread 0
// writes the block's partial sum. In every round the active threads (tid < s)
// write sdata[tid] and read sdata[tid + s] >= s, which nobody writes that round.
__global__ void reduce(const int *g_in, int *g_out) {
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_in[i];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_out[blockIdx.x] = sdata[0];
}
