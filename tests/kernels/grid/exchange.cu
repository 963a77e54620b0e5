// Two blocks swap halves through global memory: each thread publishes a value, the grid
// barrier makes every block's writes visible, then each thread reads its mirror thread's value,
// which a thread of the other block wrote.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void exchange(int *buf, int *out) {
  cg::grid_group grid = cg::this_grid();
  unsigned long long i = grid.thread_rank();
  unsigned long long n = grid.size();
  buf[i] = (int)i * 3;
  grid.sync();
  out[i] = buf[n - 1 - i];
}
