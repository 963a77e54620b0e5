// expect: verified
// --blockDim=64 --gridDim=1
// cuda-samples' simpleCooperativeGroups: a reduction over a generic `thread_group`, called
// with the whole block and then with each tile of 16 threads on its own part of the
// workspace. Through the parameter, `g.thread_rank()`, `g.size()` and `g.sync()` are those of
// the group passed (the block's, then the tile's), not a coalesced group's.
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
  int total = sum(block, workspace, block.thread_rank());
  if (block.thread_rank() == 0) out[0] = total;
  block.sync();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  cg::thread_group g = tile;
  int offset = block.thread_rank() - g.thread_rank();
  int part = sum(g, workspace + offset, tile.thread_rank());
  if (tile.thread_rank() == 0) out[1 + blockIdx.x * 4 + offset / 16] = part;
}
