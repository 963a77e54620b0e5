// expect: verified
// --blockDim=64 --gridDim=4
#include <cuda.h>
__global__ void halving(int *out) {
    __shared__ int s[64 * 65];
    int j = 1;
    for (int i = 64; i > 1; i >>= 1) {
        s[threadIdx.x * 64 + j] = i;
        j *= 2;
    }
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = s[threadIdx.x * 64 + 1];
}
