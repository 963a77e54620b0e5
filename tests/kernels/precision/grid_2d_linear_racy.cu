#include <cuda.h>

// As grid_2d_linear.cu, with blockDim.x where gridDim.x belongs: rows of blocks overlap
// (block (0, 1) and block (blockDim.x, 0) compute the same b) in launches of a few threads.
__global__ void scale(int n, int *a) {
    int b = blockIdx.y * blockDim.x + blockIdx.x;
    int i = b * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] = 2 * a[i];
    }
}
