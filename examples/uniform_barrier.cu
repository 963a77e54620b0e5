// expect: verified
// --blockDim=128 --gridDim=16
#include <cuda.h>

// Even blocks rotate their 128 values by one position, odd blocks copy them
// unchanged. The barriers inside the `if` are reached by all threads of a block
// or by none, since the condition depends only on blockIdx.
__global__ void uniform_barrier(int *data) {
    __shared__ int buf[128];
    unsigned t = threadIdx.x;
    unsigned g = blockIdx.x * blockDim.x + t;

    buf[t] = data[g];
    __syncthreads();
    if (blockIdx.x % 2 == 0) {
        int v = buf[(t + 1) % blockDim.x];
        __syncthreads();
        buf[t] = v;
        __syncthreads();
    }
    data[g] = buf[t];
}
