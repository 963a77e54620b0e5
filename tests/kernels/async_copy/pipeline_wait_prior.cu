// expect: verified
// --blockDim=64 --gridDim=1
// cuda-samples' tensor-core GEMMs: copies of a `cuda::aligned_size_t` into a per-thread
// pipeline, `cuda::pipeline_consumer_wait_prior<0>` (every group complete) and a barrier, then
// each thread reads its neighbour's element. The source is one of two arrays, chosen per
// warp (`warp < 1 ? &a[t] : &b[t]`).
#include <cuda/pipeline>

__global__ void wait_prior_all(const float4 *a, const float4 *b, float4 *out) {
    __shared__ float4 tile[64];
    auto pipe = cuda::make_pipeline();
    const auto shape = cuda::aligned_size_t<alignof(float4)>(sizeof(float4));
    unsigned t = threadIdx.x;
    const float4 *src = (t / 32 < 1) ? &a[t] : &b[t];
    pipe.producer_acquire();
    cuda::memcpy_async(&tile[t], src, shape, pipe);
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<0>(pipe);
    __syncthreads();
    out[t] = tile[(t + 1) % 64];
}
