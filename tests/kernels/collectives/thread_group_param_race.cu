// expect: race on workspace
// --blockDim=64 --gridDim=1
// thread_group_param.cu with every tile of 16 threads reducing in the same first 16 words of
// the workspace: a tile's sync orders its own threads only, so the tiles race. The race is
// certain (not "possible"): the generic group's ranks are the tile's.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int sum(cg::thread_group g, int *x, int val) {
  int lane = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    x[lane] = val;
    g.sync();
    if (lane < i) val += x[lane + i];
    g.sync();
  }
  return g.thread_rank() == 0 ? val : -1;
}

__global__ void groups(int *out) {
  extern __shared__ int workspace[];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int part = sum(tile, workspace, tile.thread_rank());
  if (tile.thread_rank() == 0) out[block.thread_rank() / 16] = part;
}
