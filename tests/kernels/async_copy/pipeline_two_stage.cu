// expect: verified
// --blockDim=64 --gridDim=1
// The fixed form of pipeline_two_stage_race.cu: a barrier before the consumer releases its
// stage, so no thread's next copy into it starts before every thread has read it.
#include <cuda/pipeline>

__global__ void stream(const float *in, float *out) {
    __shared__ float tile[2][64];
    auto pipe = cuda::make_pipeline();
    unsigned t = threadIdx.x;
    pipe.producer_acquire();
    cuda::memcpy_async(&tile[0][t], &in[t], sizeof(float), pipe);
    pipe.producer_commit();
    for (int b = 0; b < 4; b++) {
        if (b + 1 < 4) {
            pipe.producer_acquire();
            cuda::memcpy_async(&tile[(b + 1) % 2][t], &in[(b + 1) * 64 + t], sizeof(float), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        __syncthreads();
        out[b * 64 + t] = tile[b % 2][(t + 1) % 64];
        __syncthreads();
        pipe.consumer_release();
    }
}
