// expect: verified
// --blockDim=32 --gridDim=4
// Block 0 publishes 4 slots per thread, each with its own flag; the other blocks wait for each
// flag in a loop (abstracted) and read the slot after a fence.
__device__ int flag[128];

__global__ void slots(int *data, int *out, int n) {
    unsigned i = threadIdx.x;
    if (blockIdx.x == 0) {
        data[i] = 1;
        data[i + 32] = 2;
        data[i + 64] = 3;
        data[i + 96] = 4;
        __threadfence();
        atomicExch(&flag[i], 1);
        atomicExch(&flag[i + 32], 1);
        atomicExch(&flag[i + 64], 1);
        atomicExch(&flag[i + 96], 1);
    } else {
        for (int k = 0; k < n; k++) {
            unsigned j = i + 32 * (k % 4);
            while (atomicOr(&flag[j], 0) == 0) {
            }
            __threadfence();
            out[blockIdx.x * 128 + j] = data[j];
        }
    }
}
