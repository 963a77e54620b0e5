// expect: race on tile
// --blockDim=64 --gridDim=2
// cg_wait_then_read.cu without the block.sync() that ends a round: the next round's copy may
// overwrite the tile while a slower thread still reads its neighbour's element.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void shift(const float *in, float *out) {
    __shared__ float tile[64];
    cg::thread_block block = cg::this_thread_block();
    unsigned t = block.thread_rank();
    for (int r = 0; r < 2; r++) {
        cg::memcpy_async(block, tile, in + (r * gridDim.x + blockIdx.x) * 64, sizeof(float) * 64);
        cg::wait(block);
        out[(r * gridDim.x + blockIdx.x) * 64 + t] = tile[(t + 1) % 64];
    }
}
