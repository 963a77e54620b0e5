#include <cuda.h>

// As uniform_break.cu with the exit decided through a flag set under a uniform condition.
__global__ void flags(int *a, int n, int limit) {
    __shared__ int s[256];
    int done = 0;
    for (int k = 0; k < n; k++) {
        s[threadIdx.x] = a[threadIdx.x];
        __syncthreads();
        if (k * blockDim.x >= limit) done = 1;
        if (done) break;
        a[threadIdx.x] = s[255 - threadIdx.x];
        __syncthreads();
    }
}
