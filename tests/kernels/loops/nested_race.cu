// expect: race
// --blockDim=32 --gridDim=2
#include <cuda.h>
__global__ void nested(int *out) {
    __shared__ int s[16 * 32];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) s[(i * 4 + j) * 32 + threadIdx.x / 2] = i + j + threadIdx.x;
    __syncthreads();
    out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
}
