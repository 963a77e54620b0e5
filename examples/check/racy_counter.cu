// A shared counter incremented by every thread without synchronisation: `c = c + 1` is a read
// then a write, so two threads can both read 0 before either writes (a lost update).
// gpug check racy_counter.cu --blockDim=2 --gridDim=1                   race (exit 1)
// gpug check racy_counter.cu --blockDim=2 --gridDim=1 --all-schedules   assertion fails
#include <assert.h>

__global__ void racy_counter(int *out) {
    __shared__ int c;
    if (threadIdx.x == 0) c = 0;
    __syncthreads();
    c = c + 1;
    __syncthreads();
    if (threadIdx.x == 0) {
        assert(c == blockDim.x);
        out[0] = c;
    }
}
