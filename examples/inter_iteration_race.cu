// expect: race
// --blockDim=64 --gridDim=8
#include <cuda.h>

// PUG section 6.3: without a barrier, threads run different iterations, and thread t's write of
// acc[i + 1 + t] in iteration i meets thread t+1's read... of acc[i'] = acc[i + 1 + t] in a later
// iteration i' of its own.
__global__ void inter_iteration(int n, int *out) {
    __shared__ int acc[1024];
    for (int i = 0; i < n; i++) {
        acc[i + 1 + threadIdx.x] += acc[i];
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc[threadIdx.x];
}
