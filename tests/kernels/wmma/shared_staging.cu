// expect: verified
// --blockDim=128 --gridDim=4
// The block stages four 16x16 tiles of A in shared memory (each thread copies elements of
// its warp's tile), then each warp multiplies its tile by its neighbour's, after a barrier.
#include <mma.h>
using namespace nvcuda;

__global__ void k(const half *a, float *c) {
  __shared__ half tile[4][256];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int i = lane; i < 256; i += 32)
    tile[warp][i] = a[blockIdx.x * 1024 + warp * 256 + i];
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, &tile[warp][0], 16);
  wmma::load_matrix_sync(fb, &tile[(warp + 1) % 4][0], 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c + (blockIdx.x * 4 + warp) * 256, acc, 16, wmma::mem_col_major);
}
