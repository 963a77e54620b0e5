// expect: verified
// --blockDim=64 --gridDim=2
// Each thread's own cuda::memcpy_async (no group) of one element, completed through the
// block's barrier: after bar.arrive_and_wait() every thread's copy is complete.
#include <cuda/barrier>
using barrier_t = cuda::barrier<cuda::thread_scope_block>;

__global__ void shift(const float *in, float *out) {
    __shared__ float tile[64];
    alignas(barrier_t) __shared__ unsigned char storage[sizeof(barrier_t)];
    barrier_t &bar = *reinterpret_cast<barrier_t *>(storage);
    unsigned t = threadIdx.x;
    if (t == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    cuda::memcpy_async(&tile[t], &in[blockIdx.x * 64 + t], sizeof(float), bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 64 + t] = tile[(t + 1) % 64];
}
