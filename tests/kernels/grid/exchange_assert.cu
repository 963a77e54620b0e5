// exchange.cu with an assertion on the value read from the other block: it holds in every
// schedule, since the grid barrier orders the mirror thread's write before the read.
#include <assert.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void exchange(int *buf, int *out) {
  cg::grid_group grid = cg::this_grid();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned n = gridDim.x * blockDim.x;
  buf[i] = (int)i * 3;
  grid.sync();
  int v = buf[n - 1 - i];
  assert(v == (int)(n - 1 - i) * 3);
  out[i] = v;
}
