// expect: verified
// --blockDim=64 --gridDim=2
// The fixed form of read_before_wait.cu: each thread waits for its copy, then the barrier
// makes every thread's copy visible before the neighbour's element is read.
#include <cuda_pipeline_primitives.h>

__global__ void shift(const float *in, float *out) {
    __shared__ float tile[64];
    unsigned t = threadIdx.x;
    __pipeline_memcpy_async(&tile[t], &in[blockIdx.x * 64 + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[blockIdx.x * 64 + t] = tile[(t + 1) % 64];
}
