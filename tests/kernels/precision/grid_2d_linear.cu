#include <cuda.h>

// A 2-D grid of 1-D blocks linearised by hand (issue 43, item 5): block b is
// blockIdx.y * gridDim.x + blockIdx.x and thread i is b * blockDim.x + threadIdx.x, unique for
// every launch of at most 2^32 threads in all. Each dimension's own thread count can stay
// below 2^32 while the whole launch's exceeds it: then i wraps and two threads share it.
__global__ void scale(int n, int *a) {
    int b = blockIdx.y * gridDim.x + blockIdx.x;
    int i = b * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] = 2 * a[i];
    }
}
