// expect: verified
// --blockDim=64 --gridDim=1
// Two commit groups; __pipeline_wait_prior(1) completes the first, whose tile alone is read
// after the barrier (the second is read after __pipeline_wait_prior(0) and another barrier).
#include <cuda_pipeline_primitives.h>

__global__ void two_stages(const float *in, float *out) {
    __shared__ float tile[2][64];
    unsigned t = threadIdx.x;
    __pipeline_memcpy_async(&tile[0][t], &in[t], sizeof(float));
    __pipeline_commit();
    __pipeline_memcpy_async(&tile[1][t], &in[64 + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    float a = tile[0][(t + 1) % 64];
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t] = a + tile[1][(t + 1) % 64];
}
