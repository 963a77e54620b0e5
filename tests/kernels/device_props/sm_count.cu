// A persistent kernel launched with one block per SM: each block's thread 0 writes its own
// slot of a 2048-slot table, which two blocks share only in a grid of more than 2048 blocks.
// No CUDA device has more than 1024 SMs, so the launch main makes is race-free.
#include <cstdio>

__global__ void per_sm(int *slots) {
    if (threadIdx.x == 0)
        slots[blockIdx.x % 2048] = blockIdx.x;
}

int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int *slots;
    cudaMalloc(&slots, 2048 * sizeof(int));
    per_sm<<<prop.multiProcessorCount, 128>>>(slots);
    cudaDeviceSynchronize();
    cudaFree(slots);
    return 0;
}
