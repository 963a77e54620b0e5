// expect: race
// --blockDim=64 --gridDim=4
// expect: verified
// --blockDim=64 --gridDim=1
// expect: verified
// --blockDim=64 --gridDim=4 -DATOMIC=atomicAdd
#include <cuda.h>

// A global histogram updated with block-scope atomics (issue 22). atomicAdd_block is atomic
// only with respect to the threads of its own block (CUDA C++ Programming Guide, "Atomic
// Functions"): two blocks that bump one bin race, which gpug reports as "atomicAdd_block by
// blocks ... : block scope does not order threads of different blocks". With a single block
// every update is atomic for all threads that exist; with the device-scope atomicAdd
// (-DATOMIC=atomicAdd) the histogram is race-free in any launch.
#ifndef ATOMIC
#define ATOMIC atomicAdd_block
#endif

#define BINS 16

__global__ void histogram_global(const unsigned char *in, unsigned *bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        ATOMIC(&bins[in[i] % BINS], 1u);
    }
}
