#include <cuda.h>

__global__ void broken(int *a) {
    a[threadIdx.x] = 0
}
