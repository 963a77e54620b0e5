// __syncwarp() reached by lanes 0..15 of warp 0 only: barrier divergence within the warp.
#include <cuda.h>
__global__ void k(int *a) {
    __shared__ int s[64];
    unsigned t = threadIdx.x;
    s[t] = a[t];
    if (t < 16) __syncwarp();
    a[t] = s[t ^ 1];
}
