// expect: race
// --blockDim=64 --gridDim=4
// The consumer spins with atomicAdd_block, which is atomic only for its own block (not
// morally strong with the producer's write in block 0): the flag orders nothing across blocks,
// and its read races with the write too.
__device__ int flag[64];

__global__ void block_scope_wait(int *data, int *out) {
    unsigned i = threadIdx.x;
    if (blockIdx.x == 0) {
        data[i] = 1;
        __threadfence();
        atomicExch(&flag[i], 1);
    } else {
        while (atomicAdd_block(&flag[i], 0) == 0) {
        }
        __threadfence();
        out[blockIdx.x * blockDim.x + i] = data[i];
    }
}
