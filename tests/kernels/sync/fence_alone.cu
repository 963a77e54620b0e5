// expect: race on data
// --blockDim=64 --gridDim=4
// A fence orders a thread's own accesses as others see them; without a flag or a lock it does
// not make another block's read wait for the write.
__global__ void fence_alone(int *data, int *out) {
    unsigned i = threadIdx.x;
    if (blockIdx.x == 0) {
        data[i] = 1;
        __threadfence();
    } else {
        __threadfence();
        out[blockIdx.x * blockDim.x + i] = data[i];
    }
}
