#include <cuda.h>

// A loop whose only exit is a uniform `break` after both barriers (`while (true)`): every
// iteration runs both barriers. It was given no barrier count per iteration (its body leaves
// the loop), so two threads at equal counts could be in different iterations: a race on s.
__global__ void rounds(int *a, int n) {
    __shared__ int s[256];
    int k = 0;
    while (true) {
        s[threadIdx.x] = a[threadIdx.x];
        __syncthreads();
        a[threadIdx.x] = s[255 - threadIdx.x];
        __syncthreads();
        k += blockDim.x;
        if (k >= n) break;
    }
}
