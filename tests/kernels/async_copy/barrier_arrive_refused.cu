// expect: unsupported at 17:36
// --blockDim=64 --gridDim=1
// A split arrive/wait on a cuda::barrier is not modelled: refused with the call's place.
#include <cuda/barrier>
using barrier_t = cuda::barrier<cuda::thread_scope_block>;

__global__ void split(const float *in, float *out) {
    __shared__ float tile[64];
    alignas(barrier_t) __shared__ unsigned char storage[sizeof(barrier_t)];
    barrier_t &bar = *reinterpret_cast<barrier_t *>(storage);
    unsigned t = threadIdx.x;
    if (t == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    cuda::memcpy_async(&tile[t], &in[t], sizeof(float), bar);
    out[t] = in[t] * 2.0f;
    barrier_t::arrival_token tok = bar.arrive();
    bar.wait(cuda::std::move(tok));
    out[t] += tile[(t + 1) % 64];
}
