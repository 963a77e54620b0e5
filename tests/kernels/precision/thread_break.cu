#include <cuda.h>

// The exit depends on the thread (`k == threadIdx.x`): thread k leaves in iteration k, before
// the second barrier, which the others still reach: barrier divergence.
__global__ void steps(int *out, int n) {
    __shared__ int s[256];
    for (int k = 0; k < n; k++) {
        s[threadIdx.x] = k;
        __syncthreads();
        out[threadIdx.x] = s[(threadIdx.x + 1) % 256];
        if (k == threadIdx.x) break;
        __syncthreads();
    }
}
