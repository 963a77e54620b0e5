#include <cuda.h>

// Both branches write flag[0], with different values: threads of different parities race
// harmfully, even though two threads of one parity would race benignly.
__global__ void two_values(int *flag) {
    if (threadIdx.x & 1) {
        flag[0] = 1;
    } else {
        flag[0] = 2;
    }
}
