// expect: verified
// --blockDim=[16,16] --gridDim=[8,8]
#include <cuda.h>

#define TILE 16

// Transpose of a square matrix whose side is given by the grid (8 tiles of 16).
// A block stages its tile in shared memory, synchronises, and writes the tile
// back transposed, so both global accesses are row-contiguous.
__global__ void transpose(float *out, const float *in) {
    __shared__ float tile[TILE][TILE];
    unsigned width = gridDim.x * TILE;

    unsigned x = blockIdx.x * TILE + threadIdx.x;
    unsigned y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];

    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * width + x] = tile[threadIdx.x][threadIdx.y];
}
