// expect: race on tile
// --blockDim=64 --gridDim=1
// Two commit groups, and a wait that leaves the last one in flight: the second tile's copy
// is not covered by __pipeline_wait_prior(1), so reading it after the barrier races.
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
    out[t] = tile[0][(t + 1) % 64] + tile[1][(t + 1) % 64];
}
