// expect: verified
// --blockDim=256 --gridDim=2
// A 2-D array of accumulator fragments per warp (as cudaTensorCoreGemm's compute_gemm):
// loaded column-major from global memory, scaled element by element over num_elements,
// multiplied and stored row-major to the warp's own 32x64 block of D.
#include <mma.h>
using namespace nvcuda;

__global__ void k(const half *a, const half *b, const float *c, float *d, float alpha) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  float *dw = d + warp * 32 * 64;
  const float *cw = c + warp * 32 * 64;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][4];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb[4];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 4; j++)
      wmma::load_matrix_sync(acc[i][j], cw + i * 16 + j * 16 * 32, 32, wmma::mem_col_major);
  for (int i = 0; i < 2; i++) wmma::load_matrix_sync(fa[i], a + i * 256, 16);
  for (int j = 0; j < 4; j++) wmma::load_matrix_sync(fb[j], b + j * 256, 16);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 4; j++) {
      wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
      for (int t = 0; t < acc[i][j].num_elements; t++) acc[i][j].x[t] *= alpha;
      wmma::store_matrix_sync(dw + i * 16 * 64 + j * 16, acc[i][j], 64, wmma::mem_row_major);
    }
}
