// expect: race
// --blockDim=[16,16] --gridDim=[8,8,1]
#include <cuda.h>

#define TILE 16

// transpose.cu without its barrier: thread (x, y) reads tile[x][y], which thread
// (y, x) writes in the same barrier interval.
__global__ void transpose(float *out, const float *in) {
    __shared__ float tile[TILE][TILE];
    unsigned width = gridDim.x * TILE;

    unsigned x = blockIdx.x * TILE + threadIdx.x;
    unsigned y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * width + x] = tile[threadIdx.x][threadIdx.y];
}
