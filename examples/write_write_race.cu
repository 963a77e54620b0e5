// expect: race
// --blockDim=128 --gridDim=4
#include <cuda.h>

// "Last writer wins": every thread of a block writes s[0] in the same barrier
// interval.
__global__ void write_write_race(unsigned *out) {
    __shared__ unsigned s[32];
    s[0] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
