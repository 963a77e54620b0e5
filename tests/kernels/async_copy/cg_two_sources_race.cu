// expect: race on tile
// --blockDim=64 --gridDim=2
// The block's copy from one of two arrays chosen by a condition (as cuda-samples'
// dmmaTensorCoreGemm picks A or B): each thread reads its neighbour's element before cg::wait,
// while the copy may still be in flight.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void shift(const float *a, const float *b, float *out, int use_a) {
    __shared__ float tile[64];
    cg::thread_block block = cg::this_thread_block();
    unsigned t = block.thread_rank();
    const float *src = use_a ? &a[blockIdx.x * 64] : &b[blockIdx.x * 64];
    cg::memcpy_async(block, tile, src, sizeof(float) * 64);
    out[blockIdx.x * 64 + t] = tile[(t + 1) % 64];
    cg::wait(block);
}
