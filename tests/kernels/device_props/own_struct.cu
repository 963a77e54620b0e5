// A struct of the program's own with a field named like a device property is not the
// device's: its value is any int, and the race of more than 2048 blocks is reported.
#include <cstdio>
#include <cstdlib>

struct Config {
    int multiProcessorCount;
};

__global__ void per_sm(int *slots) {
    if (threadIdx.x == 0)
        slots[blockIdx.x % 2048] = blockIdx.x;
}

int main(int argc, char **argv) {
    Config c;
    c.multiProcessorCount = atoi(argv[1]);
    int *slots;
    cudaMalloc(&slots, 2048 * sizeof(int));
    per_sm<<<c.multiProcessorCount, 128>>>(slots);
    cudaDeviceSynchronize();
    cudaFree(slots);
    return 0;
}
