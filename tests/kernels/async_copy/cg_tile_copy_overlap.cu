// expect: race on s
// --blockDim=64 --gridDim=1
// Both warp-sized tiles copy into the same 32 floats of shared memory: each tile's copy is
// its own, so the two copies write the same bytes (a write-write race between tiles), though
// within one tile the threads share one copy.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void gather(const float *in, float *out) {
    __shared__ float s[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::memcpy_async(warp, s, in + warp.meta_group_rank() * 32, sizeof(float) * 32);
    cg::wait(block);
    out[block.thread_rank()] = s[warp.thread_rank()];
}
