// expect: verified
// --blockDim=128 --gridDim=4
// C = A * B + C in place: each warp loads its own tile of C into an accumulator, multiplies
// and stores it back to the same tile with the same layout. Each element is read and
// written by the same lane (the lane-to-element mapping is the fragment type's), so the
// warp does not race with itself.
#include <mma.h>
using namespace nvcuda;

__global__ void k(const half *a, const half *b, float *c) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(acc, c + warp * 256, 16, wmma::mem_col_major);
  wmma::load_matrix_sync(fa, a + warp * 256, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c + warp * 256, acc, 16, wmma::mem_col_major);
}
