// expect: race on buf
// --blockDim=64 --gridDim=1
// `const int &m = std::min(buf[t], buf[t + 1])` is a reference to one of the two elements,
// not a copy: reading it after the neighbour's write to buf[t + 1], with no barrier between,
// races.
#include <algorithm>

__global__ void clamp_pairs(const int *in, int *out) {
    __shared__ int buf[65];
    unsigned t = threadIdx.x;
    buf[t] = in[t];
    if (t == 0)
        buf[64] = in[64];
    __syncthreads();
    const int &m = std::min(buf[t], buf[t + 1]);
    buf[t] = 0;
    out[t] = m;
}
