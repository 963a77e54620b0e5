// conjugateGradientMultiBlockCG's cooperative launch: the SM count times the blocks per SM
// from the occupancy API. A product of two device values is too nonlinear for ghost
// variables; its bounds (at most 1024 * 32 blocks) still hold, and the 32768-slot table holds
// every block.
#include <cstdio>

__global__ void resident(int *slots) {
    if (threadIdx.x == 0)
        slots[blockIdx.x % 32768] = blockIdx.x;
}

int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int perSm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, resident, 64, 0);
    int numSms = prop.multiProcessorCount;
    int *slots;
    cudaMalloc(&slots, 32768 * sizeof(int));
    dim3 grid(numSms * perSm, 1, 1);
    resident<<<grid, 64>>>(slots);
    cudaDeviceSynchronize();
    cudaFree(slots);
    return 0;
}
