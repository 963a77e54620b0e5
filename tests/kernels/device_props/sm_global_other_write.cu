// As sm_global.cu, but the program may also set the global from its command line: its value
// is then any int, and the race of more than 2048 blocks is reported.
#include <cstdio>
#include <cstdlib>

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

int main(int argc, char **argv) {
    setup();
    if (argc > 1)
        num_sms = atoi(argv[1]);
    int *slots;
    cudaMalloc(&slots, 2048 * sizeof(int));
    per_sm<<<2 * num_sms, 128>>>(slots);
    cudaDeviceSynchronize();
    cudaFree(slots);
    return 0;
}
