// expect: unsupported at 12:3
// --blockDim=64 --gridDim=2
// The experimental 4-bit element types are refused in loads and stores.
#include <mma.h>
using namespace nvcuda;
using namespace nvcuda::wmma::experimental;

__global__ void k(const unsigned *a, int *c) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::u4, wmma::row_major> fa;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> acc;
  wmma::load_matrix_sync(fa, a + w * 64, 32);
  wmma::fill_fragment(acc, 0);
  wmma::store_matrix_sync(c + w * 64, acc, 8, wmma::mem_row_major);
}
