// The racy counter fixed with atomicAdd: one read-modify-write step per thread, so every
// schedule counts every thread.
// gpug check atomic_counter.cu --blockDim=2 --gridDim=1 --all-schedules   all assertions hold
#include <assert.h>

__global__ void atomic_counter(int *out) {
    __shared__ int c;
    if (threadIdx.x == 0) c = 0;
    __syncthreads();
    atomicAdd(&c, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        assert(c == blockDim.x);
        out[0] = c;
    }
}
