// Matrix transpose of a W x W matrix through a shared tile, one thread per element, with a
// postcondition over the final output: for all i, j < W, out[i][j] == in[j][i]. The free
// variables i, j are uninitialised locals, so they range over all values (PUG's `guarantee`).
// gpug check transpose.cu --blockDim=[4,4] --gridDim=1 -DW=4          all assertions hold
// gpug check transpose.cu --blockDim=[4,4] --gridDim=1 -DW=4 -DBUG    fails: the tile is read untransposed
#ifndef W
#define W 4
#endif

__global__ void transpose(const int *in, int *out) {
    __shared__ int tile[W][W];
    unsigned x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * W + x];
    __syncthreads();
#ifdef BUG
    out[y * W + x] = tile[y][x];
#else
    out[y * W + x] = tile[x][y];
#endif
    unsigned i, j;
    __ensures(!(i < W && j < W) || out[i * W + j] == in[j * W + i]);
}
