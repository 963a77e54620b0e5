// expect: verified
// --blockDim=256 --gridDim=1 -DN=256
#include <cuda.h>

// kernel1 from the PUG paper (Li & Gopalakrishnan, FSE 2010), Section 1.
// Every thread reads its left neighbour's element of `a` into shared memory,
// waits at the barrier, and only then overwrites its own element of `a`.
// One block, so idx is the thread index and no other block touches `a`.
void __global__ kernel1(int *a, int b) {
    __shared__ int temp[N];
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N) temp[idx] = a[idx - 1] + b;
    __syncthreads(); // A barrier
    if (idx < N) a[idx] = temp[idx];
}
