// expect: verified
// --blockDim=64 --gridDim=2
// Each warp-sized tile copies its own 32 floats into shared memory with
// cooperative_groups::memcpy_async (the count as a cuda::aligned_size_t, as cuda-samples'
// dmmaTensorCoreGemm gives it), waits for its copy with cg::wait(warp), and each thread then
// reads its neighbour's element within its tile's part: the tile's copy is complete there.
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
    out[blockIdx.x * 64 + block.thread_rank()] = s[base + (warp.thread_rank() + 1) % 32];
}
