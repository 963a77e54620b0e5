#include <cuda.h>

// A loop whose exit is the same in every thread (issue 43, item 5; GPUVerify's uniformity
// analysis): `acc` is computed from parameters and the loop counter only, so every thread
// breaks in the same iteration, between the same two barriers. Abstracted (n is symbolic),
// each thread's `acc` was havocked on its own, so one thread could break while the other went
// on to the second barrier: a barrier divergence and races that no execution has.
__global__ void steps(int *a, int n, int limit) {
    __shared__ int s[256];
    int acc = 1;
    for (int k = 0; k < n; k++) {
        s[threadIdx.x] = a[threadIdx.x];
        __syncthreads();
        acc = acc * 3 + k;
        if (acc > limit) break;
        a[threadIdx.x] = s[255 - threadIdx.x];
        __syncthreads();
    }
}
