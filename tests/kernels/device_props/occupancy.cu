// conjugateGradientMultiBlockCG's launch: as many blocks as fit on the device at once
// (blocks per SM from the occupancy API, times the SM count), the block size from
// cudaOccupancyMaxPotentialBlockSize. At most 1024 SMs of 32 blocks each: the 32768-slot
// table holds every block.
#include <cstdio>

__global__ void resident(int *slots) {
    if (threadIdx.x == 0)
        slots[blockIdx.x % 32768] = blockIdx.x;
}

int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int minGrid = 0, block = 0, perSm = 0;
    cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, resident, 0, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, resident, block, 0);
    int *slots;
    cudaMalloc(&slots, 32768 * sizeof(int));
    int numSms = prop.multiProcessorCount;
    dim3 grid(numSms * perSm, 1, 1);
    resident<<<grid, block>>>(slots);
    cudaDeviceSynchronize();
    cudaFree(slots);
    return 0;
}
