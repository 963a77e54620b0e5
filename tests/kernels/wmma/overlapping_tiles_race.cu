// expect: race on c
// --blockDim=128 --gridDim=4
// As gemm_tile_per_warp.cu, but consecutive warps' 16x16 tiles of C start 128 elements
// apart: rows 8 to 15 of one warp's tile are rows 0 to 7 of the next one's.
#include <mma.h>
using namespace nvcuda;

__global__ void gemm(const half *a, const half *b, float *c) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a + warp * 256, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c + warp * 128, acc, 16, wmma::mem_row_major);
}
