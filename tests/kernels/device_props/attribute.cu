// The SM count read with cudaDeviceGetAttribute, and the block size with a pointer to the
// device's properties: one block per SM stays within the 2048-slot table, and each block's
// threads within their 1024-slot row, on every device.
#include <cstdio>

__global__ void per_sm(int *slots) {
    slots[(blockIdx.x % 2048) * 1024 + threadIdx.x % 1024] = blockIdx.x;
}

void launch(const cudaDeviceProp *prop, int *slots) {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    per_sm<<<sms, prop->maxThreadsPerBlock>>>(slots);
}

int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int *slots;
    cudaMalloc(&slots, 2048 * 1024 * sizeof(int));
    launch(&prop, slots);
    cudaDeviceSynchronize();
    cudaFree(slots);
    return 0;
}
