// exchange_assert.cu asserting the wrong value: each thread reads its mirror's value, not its
// own, so the assertion fails (for thread 0 of block 0, among others).
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
  assert(v == (int)i * 3);
  out[i] = v;
}
