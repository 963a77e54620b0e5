// expect: verified
// --blockDim=256 --gridDim=64
// expect: race
// --blockDim=256 --gridDim=64 -DPER_BLOCK
#include <cuda.h>

// A warp-shuffle reduction (issue 12): each warp sums its 32 values with __shfl_down_sync and
// lane 0 writes the warp's sum. gpug does not model what another lane holds, so the values a
// shuffle hands over are unknown, and says so; the addresses do not depend on them, so the
// kernel verifies. With -DPER_BLOCK lane 0 of every warp writes the block's one slot: the 8
// warps of a block race on it (reported as possible, since it comes after the shuffles).
__global__ void warp_sums(const float *in, float *out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_down_sync(0xffffffff, v, o);
    }
    if ((threadIdx.x & 31) == 0) {
#ifdef PER_BLOCK
        out[blockIdx.x] = v;
#else
        out[i / 32] = v;
#endif
    }
}
