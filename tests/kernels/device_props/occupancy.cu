// The launch cudaOccupancyMaxPotentialBlockSize suggests: its minimum grid for full occupancy
// (at most 1024 SMs of 32 blocks each) and its block size (at most 1024 threads). The
// 32768-slot table holds every block.
#include <cstdio>

__global__ void resident(int *slots) {
    if (threadIdx.x == 0)
        slots[blockIdx.x % 32768] = blockIdx.x;
}

int main() {
    int minGrid = 0, block = 0;
    cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, resident, 0, 0);
    int *slots;
    cudaMalloc(&slots, 32768 * sizeof(int));
    resident<<<minGrid, block>>>(slots);
    cudaDeviceSynchronize();
    cudaFree(slots);
    return 0;
}
