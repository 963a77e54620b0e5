// Wrong postcondition over `__shared__` memory: it holds for block 0 only. Checked over each
// block's own final shared memory, block 1 breaks it.
__global__ void check_shared_blocks_ensures(int *out) {
    __shared__ int s[1];
    if (threadIdx.x == 0) {
        s[0] = blockIdx.x;
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
    __ensures(s[0] == 0);
}
