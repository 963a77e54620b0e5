// expect: race on tile
// --blockDim=64 --gridDim=2
// cuda::memcpy_async completed through a cuda::barrier: each thread reads its neighbour's
// element before bar.arrive_and_wait(), while the block's copy may still be in flight.
// (clang refuses `__shared__ cuda::barrier<…> bar;`, which nvcc accepts with a warning: the
// barrier lives in __shared__ storage of its size, named through a reference.)
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
    cuda::memcpy_async(block, tile, in + blockIdx.x * 64, sizeof(float) * 64, bar);
    out[blockIdx.x * 64 + t] = tile[(t + 1) % 64];
    bar.arrive_and_wait();
}
