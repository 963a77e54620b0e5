// expect: verified
// --blockDim=64 --gridDim=4
#include <cuda.h>
__global__ void shift(int *out) {
    __shared__ int acc[80];
    for (int i = 0; i < 8; i++) {
        __syncthreads();
        acc[i + 1 + threadIdx.x] += acc[i];
    }
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = acc[threadIdx.x];
}
