// expect: verified
// --blockDim=64 --gridDim=4
// A lock in shared memory, taken by the threads of one block with block-scope atomics and
// block-scope fences: within a block that is enough to order the critical sections.
__global__ void shared_lock(int *out) {
    __shared__ int lock;
    __shared__ int count;
    if (threadIdx.x == 0) {
        lock = 0;
        count = 0;
    }
    __syncthreads();
    while (atomicCAS_block(&lock, 0, 1) != 0) {
    }
    __threadfence_block();
    count = count + 1;
    __threadfence_block();
    atomicExch_block(&lock, 0);
    __syncthreads();
    if (threadIdx.x == 0) {
        out[blockIdx.x] = count;
    }
}
