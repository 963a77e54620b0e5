// Wrong claim: that the last block's write to `s[0]` is what every block reads. With one
// memory for all blocks (the lock-step serialization writes the last block last) it would
// "hold"; with each block's own shared memory, block 0 reads 0 and the assertion fails.
#include <assert.h>

__global__ void check_shared_blocks_fails(int *out) {
    __shared__ int s[1];
    if (threadIdx.x == 0) {
        s[0] = blockIdx.x;
    }
    __syncthreads();
    assert(s[0] == gridDim.x - 1);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[0];
}
