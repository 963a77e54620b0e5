// expect: race on tile
// --blockDim=64 --gridDim=1
// pipeline_wait_prior.cu with two commit groups and `pipeline_consumer_wait_prior<1>`: the
// latest group (the copy into tile[1]) may still be in flight when the neighbour's element of
// it is read, barrier or not.
#include <cuda/pipeline>

__global__ void wait_prior_one(const float4 *a, const float4 *b, float4 *out) {
    __shared__ float4 tile[2][64];
    auto pipe = cuda::make_pipeline();
    const auto shape = cuda::aligned_size_t<alignof(float4)>(sizeof(float4));
    unsigned t = threadIdx.x;
    pipe.producer_acquire();
    cuda::memcpy_async(&tile[0][t], &a[t], shape, pipe);
    pipe.producer_commit();
    pipe.producer_acquire();
    cuda::memcpy_async(&tile[1][t], &b[t], shape, pipe);
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<1>(pipe);
    __syncthreads();
    out[t] = tile[1][(t + 1) % 64];
}
