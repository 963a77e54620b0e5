// bank: tile write conflict-free, tile read 32-way
// --blockDim=[32,32] --gridDim=[4,4]
#define TILE 32
// Transpose through a 32x32 shared tile: the column read tile[threadIdx.x][threadIdx.y]
__global__ void transpose_naive(float *out, const float *in) {
    __shared__ float tile[TILE][TILE];
    unsigned width = gridDim.x * TILE;
    unsigned x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
    out[y * width + x] = tile[threadIdx.x][threadIdx.y];
}
