// expect: verified
// --blockDim=64 --gridDim=8
#include <cuda.h>

// Optional smoothing pass selected by a kernel parameter: `smooth` has the same
// value in every thread, so the barriers under it are never divergent.
__global__ void barrier_param(float *data, int smooth) {
    __shared__ float buf[64];
    unsigned t = threadIdx.x;
    unsigned g = blockIdx.x * blockDim.x + t;
    float v = data[g];
    if (smooth) {
        buf[t] = v;
        __syncthreads();
        if (t > 0 && t < 63)
            v = (buf[t - 1] + buf[t] + buf[t + 1]) / 3.0f;
        __syncthreads();
    }
    data[g] = v;
}
