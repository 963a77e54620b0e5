// Cooperative groups through a namespace alias and a reference parameter, tiles of 32: the
// tile's sync() is a warp barrier, and meta_group_rank() * 32 + thread_rank() is the thread's
// rank in the block, so each thread writes its own element.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ void step(const cg::thread_block &cta, int *s, int *out) {
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
    s[cta.thread_rank()] = (int)tile.thread_rank();
    tile.sync();
    unsigned lane = tile.thread_rank();
    unsigned base = tile.meta_group_rank() * tile.size();
    out[base + lane] = s[base + (lane + 1) % 32];
}

__global__ void tiles(int *out) {
    __shared__ int s[256];
    cg::thread_block cta = cg::this_thread_block();
    step(cta, s, out);
}
