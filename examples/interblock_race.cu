// expect: race
// --blockDim=32 --gridDim=2
#include <cuda.h>

// Thread t of both blocks writes out[t]. __syncthreads() only orders threads of
// one block, so the two blocks' writes race.
__global__ void interblock_race(unsigned *out) {
    __syncthreads();
    out[threadIdx.x] = blockIdx.x;
    __syncthreads();
}
