// expect: divergence
// --blockDim=64 --gridDim=4
#include <cuda.h>

// A shuffle in divergent code (issue 12): only the lower half of each warp calls
// __shfl_down_sync, but its mask names all 32 lanes. CUDA requires every non-exited lane the
// mask names to make the call, so the value lane 15 receives from lane 16 is undefined.
// gpug reports the call like a divergent barrier, naming a lane that calls it and one the mask
// names that does not. (Lanes that returned before the call are fine: see the early exit.)
__global__ void half_warp_shift(const int *in, int *out, int n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int v = in[i];
    if ((threadIdx.x & 31) < 16) {
        v = __shfl_down_sync(0xffffffff, v, 1);
    }
    out[i] = v;
}
