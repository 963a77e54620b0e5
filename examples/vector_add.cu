// expect: verified
// --blockDim=256 --gridDim=64
#include <cuda.h>

// Element-wise sum of two vectors; every thread owns one element of `c`.
__global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
