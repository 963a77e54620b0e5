// expect: verified
// --blockDim=64 --gridDim=2
// The fixed form of barrier_read_before_wait.cu (CUDA Programming Guide, "Asynchronous Data
// Copies using cuda::barrier"): bar.arrive_and_wait() completes the copy and synchronises the
// block before the neighbour's element is read, and again before the next round's copy.
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
using barrier_t = cuda::barrier<cuda::thread_scope_block>;

__global__ void shift(const float *in, float *out) {
    __shared__ float tile[64];
    alignas(barrier_t) __shared__ unsigned char storage[sizeof(barrier_t)];
    barrier_t &bar = *reinterpret_cast<barrier_t *>(storage);
    cg::thread_block block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    unsigned t = block.thread_rank();
    for (int r = 0; r < 2; r++) {
        unsigned base = (r * gridDim.x + blockIdx.x) * 64;
        cuda::memcpy_async(block, tile, in + base, sizeof(float) * 64, bar);
        bar.arrive_and_wait();
        out[base + t] = tile[(t + 1) % 64];
        bar.arrive_and_wait();
    }
}
