#include <cuda.h>

// As rows_y_only.cu, but each thread reads its neighbour's element: a race in every launch of
// two threads in y, with x pinned to 1 too.
__global__ void rows(int n, int *y) {
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n) {
        y[i] = y[i + 1];
    }
}
