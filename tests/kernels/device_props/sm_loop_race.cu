// A race inside a loop whose trip count comes from the command line (so the loop is
// abstracted and the finding is possible), at a grid of 4 blocks per SM: the launch itself
// bounds the thread count (at most 4 * 1024 blocks of 128 threads), so no index can wrap and
// the launch contracts need not verify the kernel again under a no-wrap bound. The first
// interval's stores, one slot each past the table, race with nothing: their check, refuted
// once, is not asked again under the contracts.
#include <cstdlib>

__global__ void per_sm(int *slots, int rounds) {
    slots[64 + blockIdx.x * blockDim.x + threadIdx.x] = 0;
    __syncthreads();
    for (int i = 0; i < rounds; i++)
        if (threadIdx.x == 0)
            slots[(blockIdx.x + i) % 64] += 1;
}

int main(int argc, char **argv) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int rounds = atoi(argv[1]);
    int *slots;
    cudaMalloc(&slots, (64 + 128 * 4096) * sizeof(int));
    per_sm<<<4 * prop.multiProcessorCount, 128>>>(slots, rounds);
    cudaDeviceSynchronize();
    return 0;
}
