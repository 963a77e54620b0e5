#include <cuda.h>

__global__ void jumps(int *a) {
again: if (atomicCAS(&a[0], 0, 1) != 0) goto again;
    a[threadIdx.x + 1] = 1;
}
