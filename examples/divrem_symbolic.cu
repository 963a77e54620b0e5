// expect: verified
// --blockDim=[*,1,1] --gridDim=[*,1,1] --no-overflow
// expect: race
// --blockDim=[*,1,1] --gridDim=[*,1,1] --strict
// expect: verified
// --blockDim=[*,1,1] --gridDim=[*,1,1]
#include <cuda.h>

// Without --no-overflow its race needs more than 2^32 threads in x (the index wraps): a launch
// contract excludes it (verified for launches where gridDim.x * blockDim.x <= 2^32), and
// --strict reports it.

// A 1-D launch over a row-major matrix of symbolic width: the linear index is split into a
// row and a column by division and remainder by `width`, and rebuilt. (i / w) * w + i % w = i,
// so with --no-overflow each thread owns one element; without it the linear index wraps in
// launches of 2^31 threads or more.
__global__ void scale_rows(float *m, int width, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int row = i / width;
        int col = i % width;
        m[row * width + col] = 2.0f * m[row * width + col];
    }
}
