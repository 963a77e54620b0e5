// expect: race
// --blockDim=256 --gridDim=64
#include <cuda.h>

// The tree reduction of reduce.cu without the barrier inside the loop: all rounds
// share one barrier interval, so e.g. thread 64 writes sdata[64] (round s = 128)
// while thread 0 reads sdata[64] (round s = 64).
__global__ void reduce(const int *g_in, int *g_out) {
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_in[i];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
    }
    if (tid == 0) g_out[blockIdx.x] = sdata[0];
}
