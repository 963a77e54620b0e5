// expect: race on tile
// --blockDim=64 --gridDim=2
// Each thread copies one float of its block's tile into shared memory with an asynchronous
// copy, then reads its neighbour's element after a barrier but before waiting for the copy:
// the neighbour's copy may still be in flight (a barrier does not complete a copy).
#include <cuda_pipeline_primitives.h>

__global__ void shift(const float *in, float *out) {
    __shared__ float tile[64];
    unsigned t = threadIdx.x;
    __pipeline_memcpy_async(&tile[t], &in[blockIdx.x * 64 + t], sizeof(float));
    __pipeline_commit();
    __syncthreads();
    out[blockIdx.x * 64 + t] = tile[(t + 1) % 64];
    __pipeline_wait_prior(0);
}
