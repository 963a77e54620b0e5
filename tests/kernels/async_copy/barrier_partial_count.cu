// expect: assertion
// --blockDim=64 --gridDim=1
// A barrier initialised to expect 32 threads completes its phase when any 32 of the 64 have
// arrived: gpug models cuda::barrier for the whole block only, and says so with an assertion
// failure at the init.
#include <cuda/barrier>
using barrier_t = cuda::barrier<cuda::thread_scope_block>;

__global__ void partial(const float *in, float *out) {
    __shared__ float tile[64];
    alignas(barrier_t) __shared__ unsigned char storage[sizeof(barrier_t)];
    barrier_t &bar = *reinterpret_cast<barrier_t *>(storage);
    unsigned t = threadIdx.x;
    if (t == 0)
        init(&bar, 32);
    __syncthreads();
    tile[t] = in[t];
    bar.arrive_and_wait();
    out[t] = tile[63 - t];
}
