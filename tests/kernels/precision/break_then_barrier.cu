#include <cuda.h>

// As break_then_race.cu with a barrier after the loop: no race.
__global__ void steps(int *out, int n, int limit) {
    __shared__ int s[256];
    int x = 0;
    for (int k = 0; k < n; k++) {
        s[threadIdx.x] = k;
        __syncthreads();
        x = s[(threadIdx.x + 1) % 256];
        if (k == limit) break;
        __syncthreads();
    }
    __syncthreads();
    s[threadIdx.x] = x;
    out[threadIdx.x] = x;
}
