#include <cuda.h>

__global__ void jumps(int *a) {
    if (threadIdx.x == 0) goto done;
    a[threadIdx.x] = 1;
done:
    return;
}
