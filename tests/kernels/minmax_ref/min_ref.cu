// expect: verified
// --blockDim=64 --gridDim=1
// The fixed form of min_ref_race.cu: the barrier orders every read through the reference
// before any thread overwrites the elements.
#include <algorithm>

__global__ void clamp_pairs(const int *in, int *out) {
    __shared__ int buf[65];
    unsigned t = threadIdx.x;
    buf[t] = in[t];
    if (t == 0)
        buf[64] = in[64];
    __syncthreads();
    const int &m = std::min(buf[t], buf[t + 1]);
    const int &M = std::max(buf[t], buf[t + 1]);
    out[t] = M - m;
    __syncthreads();
    buf[t] = 0;
}
