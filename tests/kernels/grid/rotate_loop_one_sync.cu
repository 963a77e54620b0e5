// rotate_loop.cu without the barrier at the end of the iteration: the next iteration's read of
// the neighbour races with the neighbour's write of this iteration.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void rotate(int *a, int steps) {
  cg::grid_group grid = cg::this_grid();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned n = gridDim.x * blockDim.x;
  for (int s = 0; s < steps; ++s) {
    int v = a[(i + 1) % n];
    grid.sync();
    a[i] = v;
  }
}
