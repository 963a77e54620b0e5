// expect: verified
// --blockDim=64 --gridDim=1
// three_pairs.cu with a barrier between the stores and the loads, and one thread storing
// the sum: no race.
#include <cuda_runtime.h>

__global__ void three_pairs_fixed(int *out) {
    __shared__ int s[65];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    int x = s[t + 1];
    __syncthreads();
    if (t == 0) s[0] = x;
    out[t] = x;
}
