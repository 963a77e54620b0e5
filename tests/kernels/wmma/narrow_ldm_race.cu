// expect: race on c
// --blockDim=64 --gridDim=2
// A leading dimension (8) smaller than the tile's width (16): element (r, c + 8) of the
// tile is element (r + 1, c), so two lanes of one warp store to the same address.
#include <mma.h>
using namespace nvcuda;

__global__ void k(float *c) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 1.0f);
  wmma::store_matrix_sync(c + warp * 1024, acc, 8, wmma::mem_row_major);
}
