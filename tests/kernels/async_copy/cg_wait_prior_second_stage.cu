// expect: race on tile
// --blockDim=64 --gridDim=1
// Two stages: cg::wait_prior<1> completes the first copy only, so reading the second stage's
// tile after it races with the copy still in flight.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void two_stages(const float *in, float *out) {
    __shared__ float tile[2][64];
    cg::thread_block block = cg::this_thread_block();
    unsigned t = block.thread_rank();
    cg::memcpy_async(block, tile[0], in, sizeof(float) * 64);
    cg::memcpy_async(block, tile[1], in + 64, sizeof(float) * 64);
    cg::wait_prior<1>(block);
    out[t] = tile[0][(t + 1) % 64] + tile[1][(t + 1) % 64];
    cg::wait(block);
}
