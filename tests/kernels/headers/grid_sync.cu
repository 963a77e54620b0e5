// A grid-wide barrier separates the read of the neighbour's element (possibly in the next
// block) from the write of one's own.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void shift(int *a) {
  cg::grid_group grid = cg::this_grid();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int next = a[i + 1];
  grid.sync();
  a[i] = next;
}
