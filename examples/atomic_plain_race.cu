// expect: race
// --blockDim=256 --gridDim=1
#include <cuda.h>

// A counter bumped atomically by every thread, but thread 0 also reads it with a
// plain load in the same barrier interval: an atomic and a non-atomic access
// still race.
__global__ void atomic_plain_race(unsigned *out) {
    __shared__ unsigned counter[1];
    if (threadIdx.x == 0) counter[0] = 0;
    __syncthreads();
    atomicAdd(&counter[0], 1u);
    if (threadIdx.x == 0) out[0] = counter[0];
}
