// A loop whose trip count depends on the block: blocks pass different numbers of grid
// barriers (divergence), although each block agrees with itself.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void trips(int *a) {
  cg::grid_group grid = cg::this_grid();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned s = 0; s <= blockIdx.x; ++s) {
    a[i] += 1;
    grid.sync();
  }
}
