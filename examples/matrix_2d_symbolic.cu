// expect: verified
// --blockDim=[*,*,1] --gridDim=[*,*,1] --no-overflow
#include <cuda.h>

// A row-major height x width matrix scaled in place under a symbolic 2-D launch: thread
// (col, row) owns m[row * width + col], with both width and height kernel parameters. Each
// index is a product of two unknowns; with --no-overflow no two threads share an element.
__global__ void scale_2d(float *m, float s, int width, int height) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col < width && row < height) {
        m[row * width + col] = s * m[row * width + col];
    }
}
