// llm.c's shape: a global set once from the device's properties, then a launch of a few
// blocks per SM. 2 * num_sms blocks stay within the 2048-slot table on every device (at most
// 1024 SMs), so the launch is race-free.
#include <cstdio>

int num_sms = 0;

__global__ void per_sm(int *slots) {
    if (threadIdx.x == 0)
        slots[blockIdx.x % 2048] = blockIdx.x;
}

void setup() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    num_sms = prop.multiProcessorCount;
}

void run(int *slots) {
    per_sm<<<2 * num_sms, 128>>>(slots);
}

int main() {
    setup();
    int *slots;
    cudaMalloc(&slots, 2048 * sizeof(int));
    run(slots);
    cudaDeviceSynchronize();
    cudaFree(slots);
    return 0;
}
