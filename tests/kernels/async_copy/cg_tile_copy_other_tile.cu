// expect: race on s
// --blockDim=64 --gridDim=2
// cg_tile_copy.cu, but each thread reads the other tile's part after waiting for its own
// tile's copy only: cg::wait(warp) neither completes nor orders the other tile's copy, which
// may still be in flight.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;

__global__ void shift(const float *in, float *out) {
    __shared__ float s[64];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    unsigned base = warp.meta_group_rank() * 32;
    cg::memcpy_async(warp, s + base, in + blockIdx.x * 64 + base,
                     cuda::aligned_size_t<16>{warp.size() * sizeof(float)});
    cg::wait(warp);
    out[blockIdx.x * 64 + block.thread_rank()] = s[(base + 32) % 64 + warp.thread_rank()];
}
