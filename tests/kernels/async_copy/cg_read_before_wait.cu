// expect: race on tile
// --blockDim=64 --gridDim=2
// The block copies its tile into shared memory with cooperative_groups::memcpy_async, and each
// thread reads its neighbour's element before cg::wait: the copy may still be in flight.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void shift(const float *in, float *out) {
    __shared__ float tile[64];
    cg::thread_block block = cg::this_thread_block();
    unsigned t = block.thread_rank();
    cg::memcpy_async(block, tile, in + blockIdx.x * 64, sizeof(float) * 64);
    out[blockIdx.x * 64 + t] = tile[(t + 1) % 64];
    cg::wait(block);
}
