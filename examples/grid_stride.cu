// expect: verified
// --blockDim=256 --gridDim=64
#include <cuda.h>
#include <stddef.h>

// A grid-stride loop over a symbolic n: thread g handles g, g + S, g + 2S, ... with S the
// number of threads of the grid, so no two threads touch one element. The loop is normalized
// (i = g + it * S with it below the trip count), not unrolled.
__global__ void saxpy(size_t n, float a, const float *x, float *y) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
        y[i] = a * x[i] + y[i];
    }
}
