#include <cuda.h>

// Blocks along x, threads along y (issue 43, item 5): threadIdx.x is never read, so threads
// that differ only in it race; blockIdx.x is read, so gridDim.x stays as given. Verified for
// launches where blockDim.x = 1 (and the z dimensions are 1), never pinning gridDim.x.
__global__ void columns(int *out) {
    int i = blockIdx.x * blockDim.y + threadIdx.y;
    out[i] = out[i] + 1;
}
