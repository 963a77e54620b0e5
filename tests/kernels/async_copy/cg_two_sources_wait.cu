// expect: verified
// --blockDim=64 --gridDim=2
// cg_two_sources_race.cu fixed: the read comes after cg::wait, which completes the copy from
// either array and synchronizes the block.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void shift(const float *a, const float *b, float *out, int use_a) {
    __shared__ float tile[64];
    cg::thread_block block = cg::this_thread_block();
    unsigned t = block.thread_rank();
    const float *src = use_a ? &a[blockIdx.x * 64] : &b[blockIdx.x * 64];
    cg::memcpy_async(block, tile, src, sizeof(float) * 64);
    cg::wait(block);
    out[blockIdx.x * 64 + t] = tile[(t + 1) % 64];
}
