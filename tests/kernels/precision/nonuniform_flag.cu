#include <cuda.h>

// The flag is set under a condition on the thread (`threadIdx.x >= limit`): not uniform, so
// threads may leave in different iterations: barrier divergence.
__global__ void flags(int *a, int n, int limit) {
    __shared__ int s[256];
    int done = 0;
    for (int k = 0; k < n; k++) {
        s[threadIdx.x] = a[threadIdx.x];
        __syncthreads();
        if (threadIdx.x + k >= limit) done = 1;
        if (done) break;
        a[threadIdx.x] = s[255 - threadIdx.x];
        __syncthreads();
    }
}
