// expect: race on data
// --blockDim=64 --gridDim=4
// The consumer waits for its neighbour's flag but reads its own slot: the flag it saw was
// raised by another thread than the writer of that slot, so nothing orders them.
__device__ int flag[64];

__global__ void wrong_flag(int *data, int *out) {
    unsigned i = threadIdx.x;
    if (blockIdx.x == 0) {
        data[i] = 1;
        __threadfence();
        atomicExch(&flag[i], 1);
    } else {
        while (atomicAdd(&flag[(i + 1) % 64], 0) == 0) {
        }
        __threadfence();
        out[blockIdx.x * blockDim.x + i] = data[i];
    }
}
