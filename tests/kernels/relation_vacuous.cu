#include <cuda.h>

// Every launch this kernel allows (blockDim.x == 100) races on s: threads t and t + 64 write
// s[t]. The relations `blockDim.x == 64` (the size of s) and "blockDim.x is a power of two"
// would each exclude the race, but only vacuously: they contradict the __requires.
__global__ void vacuous(int *out) {
    __requires(blockDim.x == 100);
    __shared__ int s[64];
    s[threadIdx.x % 64] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x % 64];
}
