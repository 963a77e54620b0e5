// expect: verified
// --blockDim=64 --gridDim=4
#include <cuda.h>
__global__ void rows(int *out) {
    __shared__ int s[8 * 64];
    for (int i = 0; i < 8; i++) s[i * 64 + threadIdx.x] = i;
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = s[threadIdx.x];
}
