// expect: verified
// --blockDim=64 --gridDim=8
#include <cuda.h>

// The loop of inter_iteration_race.cu with a barrier at the top of every iteration (PUG section
// 6.3, the "barriered" case): all threads of a block run the same iteration, in which the writes
// acc[i + 1 + t] are distinct and never the read acc[i]; the barrier separates iterations.
__global__ void inter_iteration(int n, int *out) {
    __shared__ int acc[1024];
    for (int i = 0; i < n; i++) {
        __syncthreads();
        acc[i + 1 + threadIdx.x] += acc[i];
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc[threadIdx.x];
}
