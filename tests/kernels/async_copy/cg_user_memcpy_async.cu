// expect: race on out
// --blockDim=64 --gridDim=1
// A function of the program named memcpy_async, in a namespace of its own and taking a
// group, is lowered from its body, not taken as cooperative groups' copy: every thread
// writes out[0].
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

namespace mine {
__device__ void memcpy_async(const cg::thread_block &g, float *dst, const float *src, unsigned n) {
    dst[0] = src[g.thread_rank() % n];
}
}

__global__ void user(const float *in, float *out) {
    cg::thread_block block = cg::this_thread_block();
    mine::memcpy_async(block, out, in, 64);
}
