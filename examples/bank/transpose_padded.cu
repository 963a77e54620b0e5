// bank: both tile accesses conflict-free (one column of padding)
// --blockDim=[32,32] --gridDim=[4,4]
#define TILE 32
// The same transpose with a 32x33 tile: column i of the tile starts in bank i.
__global__ void transpose_padded(float *out, const float *in) {
    __shared__ float tile[TILE][TILE + 1];
    unsigned width = gridDim.x * TILE;
    unsigned x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
    out[y * width + x] = tile[threadIdx.x][threadIdx.y];
}
