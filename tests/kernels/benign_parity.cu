#include <cuda.h>

// One write whose value depends on the thread: a harmful write-write race.
__global__ void parity(int *flag) {
    flag[0] = threadIdx.x & 1;
}
