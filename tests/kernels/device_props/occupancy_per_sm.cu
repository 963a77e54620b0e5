// Blocks per SM from cudaOccupancyMaxActiveBlocksPerMultiprocessor (at most 32), 16 times
// over: at most 512 blocks, one slot each.
#include <cstdio>

__global__ void resident(int *slots) {
    if (threadIdx.x == 0)
        slots[blockIdx.x % 512] = blockIdx.x;
}

int main() {
    int perSm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, resident, 64, 0);
    int *slots;
    cudaMalloc(&slots, 512 * sizeof(int));
    resident<<<16 * perSm, 64>>>(slots);
    cudaDeviceSynchronize();
    cudaFree(slots);
    return 0;
}
