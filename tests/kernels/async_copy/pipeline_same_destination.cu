// expect: race on s
// --blockDim=64 --gridDim=1
// Every thread's own asynchronous copy (__pipeline_memcpy_async) writes the same shared word:
// the instances of one per-thread copy in two threads are two copies, which race.
#include <cuda_pipeline.h>

__global__ void last(const float *in, float *out) {
    __shared__ float s[1];
    __pipeline_memcpy_async(&s[0], &in[threadIdx.x], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[threadIdx.x] = s[0];
}
