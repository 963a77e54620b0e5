// expect: race
// --blockDim=256 --gridDim=1 -DN=256
#include <cuda.h>

// kernel1 from the PUG paper with its barrier removed: thread idx writes a[idx]
// in the same barrier interval in which thread idx+1 reads a[idx].
void __global__ kernel1(int *a, int b) {
    __shared__ int temp[N];
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N) temp[idx] = a[idx - 1] + b;
    if (idx < N) a[idx] = temp[idx];
}
