// expect: verified
// --blockDim=256 --gridDim=64
// expect: race
// --blockDim=256 --gridDim=64 -DSTEP=0
// expect: race
// --blockDim=256 --gridDim=64 -DATOMIC=atomicAdd_block
#include <cuda.h>

// Stream compaction by unique indices (issue 12; Bardsley and Donaldson (NFM 2014) section 4.2): each thread that
// keeps its element takes the next free slot of `out` from a global counter with atomicAdd.
// The counter is only ever changed by atomicAdd of a positive constant, so no two calls get
// the same slot: gpug verifies the kernel under GPUVerify's counter refinement and says so
// in a note. Adding 0 (-DSTEP=0) hands every thread the same slot: a race on `out`. With
// atomicAdd_block (-DATOMIC=atomicAdd_block) the counter is atomic within a block only: two
// blocks may take one slot, and their calls race on `count` itself.
#ifndef STEP
#define STEP 1
#endif
#ifndef ATOMIC
#define ATOMIC atomicAdd
#endif

__global__ void compact(const int *in, int *out, unsigned *count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0) {
        unsigned slot = ATOMIC(count, STEP);
        out[slot] = in[i];
    }
}
