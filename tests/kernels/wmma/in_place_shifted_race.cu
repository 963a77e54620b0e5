// expect: race on c
// --blockDim=128 --gridDim=4
// As in_place_accumulate.cu, but the tile is stored back one element further on: the lane
// that writes an element need not be the one that read it, and nothing orders the two.
#include <mma.h>
using namespace nvcuda;

__global__ void k(const half *a, const half *b, float *c) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(acc, c + warp * 512, 16, wmma::mem_row_major);
  wmma::load_matrix_sync(fa, a + warp * 256, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c + warp * 512 + 1, acc, 16, wmma::mem_row_major);
}
