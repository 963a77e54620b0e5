// The program sets a device property's field itself before it launches with it: the value is
// the program's (5000 blocks), not a device's, and the race of more than 2048 blocks is
// reported.
#include <cstdio>

__global__ void per_sm(int *slots) {
    if (threadIdx.x == 0)
        slots[blockIdx.x % 2048] = blockIdx.x;
}

int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    prop.multiProcessorCount = 5000;
    int *slots;
    cudaMalloc(&slots, 2048 * sizeof(int));
    per_sm<<<prop.multiProcessorCount, 128>>>(slots);
    cudaDeviceSynchronize();
    cudaFree(slots);
    return 0;
}
