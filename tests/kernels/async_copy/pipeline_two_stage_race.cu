// expect: race on tile
// --blockDim=64 --gridDim=1
// A two-stage cuda::pipeline (thread scope, CUDA Programming Guide "multi-stage
// asynchronous copies"): each thread copies its element of the next batch into one stage
// while the block consumes the other. The consumer releases its stage without a barrier
// first: the producer's next copy into that stage may overwrite it while a slower thread
// still reads its neighbour's element there.
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
        pipe.consumer_release();
    }
}
