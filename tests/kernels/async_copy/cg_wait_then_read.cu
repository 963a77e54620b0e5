// expect: verified
// --blockDim=64 --gridDim=2
// The fixed form of cg_read_before_wait.cu (CUDA Programming Guide, "memcpy_async"): cg::wait
// completes the block's copy and synchronises the block before the neighbour's element is
// read; the block synchronises again before the next round overwrites the tile.
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
        block.sync();
    }
}
