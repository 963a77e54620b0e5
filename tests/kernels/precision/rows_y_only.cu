#include <cuda.h>

// A kernel indexed by the y dimension only (issue 43, item 5): threads and blocks that differ
// only in x compute the same i, so it races in launches with blockDim.x or gridDim.x above 1,
// which nobody makes for it. Verified for launches where the unread x (and z) dimensions are 1.
__global__ void rows(int n, int *y) {
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n) {
        y[i] = 2 * y[i];
    }
}
