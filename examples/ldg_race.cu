// expect: race
// --blockDim=64 --gridDim=4
#include <cuda.h>

// `__ldg` reads through the read-only data cache, but it is still a read of
// global memory: thread i reads a[i + 1] while thread i + 1 writes it.
__global__ void ldg_race(float *a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float next = __ldg(&a[i + 1]);
    a[i] = next;
}
