// expect: verified
// --blockDim=32 --gridDim=2
#include <cuda.h>
__global__ void back_edge(int *out) {
    __shared__ int s[32];
    for (int i = 0; i < 4; i++) {
        s[threadIdx.x] = i;
        __syncthreads();
        out[(blockIdx.x * 4 + i) * 32 + threadIdx.x] = s[(threadIdx.x + 1) % 32];
        __syncthreads();
    }
}
