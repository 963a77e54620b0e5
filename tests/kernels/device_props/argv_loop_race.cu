// As sm_loop_race.cu, with a grid from the command line: nothing bounds the thread count,
// so the contracts ask again under the no-wrap bound.
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
    per_sm<<<atoi(argv[2]), 128>>>(slots, rounds);
    cudaDeviceSynchronize();
    return 0;
}
