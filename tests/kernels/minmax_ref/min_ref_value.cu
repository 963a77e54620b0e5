// expect: verified
// --blockDim=64 --gridDim=1
// std::min's reference is to the smaller element: t's own slot when the assertion's
// condition picks it, so the reads stay in bounds and the value is the minimum.
#include <algorithm>
#include <cassert>

__global__ void pick(int *out) {
    __shared__ int buf[64];
    unsigned t = threadIdx.x;
    buf[t] = t;
    __syncthreads();
    int a = (int)t, b = 100;
    const int &m = std::min(a, b);
    const int &M = std::max(a, b);
    assert(m == (int)t && M == 100);
    out[t] = buf[m];
}
