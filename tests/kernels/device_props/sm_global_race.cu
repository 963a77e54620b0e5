// As sm_global.cu, but 4 blocks per SM share a 64-slot table: a device of more than 16 SMs
// (every data-centre GPU) launches two blocks on one slot. A real race, still reported.
#include <cstdio>

int num_sms = 0;

__global__ void per_sm(int *slots) {
    if (threadIdx.x == 0)
        slots[blockIdx.x % 64] = blockIdx.x;
}

void setup() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    num_sms = prop.multiProcessorCount;
}

int main() {
    setup();
    int *slots;
    cudaMalloc(&slots, 64 * sizeof(int));
    per_sm<<<4 * num_sms, 128>>>(slots);
    cudaDeviceSynchronize();
    cudaFree(slots);
    return 0;
}
