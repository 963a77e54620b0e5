// Only the first block reaches the grid barrier: the other blocks never arrive (divergence,
// although each block is uniform).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void first_block_only(int *a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = a[i];
  if (blockIdx.x == 0) {
    cg::this_grid().sync();
  }
  a[i] = v + 1;
}
