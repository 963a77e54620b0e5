// A barrier across the grids of several devices, which gpug does not model.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void across(int *a) {
  cg::multi_grid_group all = cg::this_multi_grid();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = a[i];
  all.sync();
  a[i] = v;
}
