// A warp sum by __shfl_xor_sync (a butterfly): after the five steps every lane holds the sum
// of its warp's 32 inputs, checked against the sum read from memory by lane 0. `gpug check`
// gives each lane exactly the value its source lane computed (issue 12).
// gpug check shuffle_sum.cu --blockDim=32 --gridDim=1                 all assertions hold
// gpug check shuffle_sum.cu --blockDim=32 --gridDim=1 -DBUG           fails: with shfl_down only lane 0 gets the sum
#include <assert.h>

__global__ void warp_sum(const int *in, int *out) {
    unsigned lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) {
#ifdef BUG
        v += __shfl_down_sync(0xffffffff, v, o);
#else
        v += __shfl_xor_sync(0xffffffff, v, o);
#endif
    }
    int total = 0;
    for (int i = 0; i < 32; i++) {
        total += in[(threadIdx.x & ~31u) + i];
    }
    assert(v == total);
    if (lane == 0) {
        out[threadIdx.x / 32] = v;
    }
}
