// expect: verified
// --blockDim=128 --gridDim=16
#include <cuda.h>

__device__ int square(int x) {
    return x * x;
}

// Only thread 0 gets past the early return; if the return were ignored, all
// threads of a block would write out[blockIdx.x].
__device__ void publish(int *out, const int *partial) {
    if (threadIdx.x != 0)
        return;
    out[blockIdx.x] = partial[0] + partial[1];
}

__global__ void device_function(const int *in, int *out) {
    __shared__ int partial[128];
    unsigned t = threadIdx.x;
    partial[t] = square(in[blockIdx.x * blockDim.x + t]);
    __syncthreads();
    publish(out, partial);
}
