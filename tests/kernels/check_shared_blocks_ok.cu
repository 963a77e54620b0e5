// Each block's `__shared__` array is its own: thread 0 of every block writes its block index,
// and after the barrier every thread of that block reads it back.
#include <assert.h>

__global__ void check_shared_blocks_ok(int *out) {
    __shared__ int s[1];
    if (threadIdx.x == 0) {
        s[0] = blockIdx.x;
    }
    __syncthreads();
    assert(s[0] == blockIdx.x);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[0];
}
