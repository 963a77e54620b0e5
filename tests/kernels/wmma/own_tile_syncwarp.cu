// expect: verified
// --blockDim=64 --gridDim=2 -DSYNC
// As own_tile_no_syncwarp_race.cu with __syncwarp() between the writes and the loads.
#include <mma.h>
using namespace nvcuda;

__global__ void k(const half *a, float *c) {
  __shared__ half tile[2][256];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int i = lane; i < 256; i += 32)
    tile[warp][i] = a[blockIdx.x * 512 + warp * 256 + i];
#ifdef SYNC
  __syncwarp();
#endif
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(fa, &tile[warp][0], 16);
  wmma::load_matrix_sync(fb, &tile[warp][0], 16);
  wmma::fill_fragment(acc, 0.0f);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c + (blockIdx.x * 2 + warp) * 256, acc, 16, wmma::mem_row_major);
}
