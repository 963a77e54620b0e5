// `steps` rotations of an array by one element across the whole grid: each iteration reads the
// right neighbour (possibly in the next block), waits for the grid, writes, waits again.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void rotate(int *a, int steps) {
  cg::grid_group grid = cg::this_grid();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned n = gridDim.x * blockDim.x;
  for (int s = 0; s < steps; ++s) {
    int v = a[(i + 1) % n];
    cg::sync(grid);
    a[i] = v;
    cg::sync(grid);
  }
}
