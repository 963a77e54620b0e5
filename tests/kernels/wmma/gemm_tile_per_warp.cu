// expect: verified
// --blockDim=128 --gridDim=4
// Each warp computes its own 16x16 tile of C = A * B (A row-major, B column-major, K = 64):
// the warps' tiles of C are disjoint, A and B are only read.
#include <mma.h>
using namespace nvcuda;

__global__ void gemm(const half *a, const half *b, float *c) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < 64; k += 16) {
    wmma::load_matrix_sync(fa, a + warp * 16 * 64 + k, 64);
    wmma::load_matrix_sync(fb, b + k, 64);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + warp * 256, acc, 16, wmma::mem_row_major);
}
