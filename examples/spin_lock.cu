// expect: verified
// --blockDim=32 --gridDim=4
// expect: race
// --blockDim=32 --gridDim=4 -DACQUIRE=atomicCAS_block
// expect: verified
// --blockDim=32 --gridDim=1 -DACQUIRE=atomicCAS_block
// expect: race
// --blockDim=32 --gridDim=4 -DNO_LOCK
// expect: race
// --blockDim=32 --gridDim=4 -DNO_FENCE
#include <cuda.h>

// A device-wide spin lock around a plain read-modify-write (issue 22): acquire with
// atomicCAS, fence, update, fence, release with atomicExch. gpug takes it as a lock because
// nothing but the lock's acquire and release writes `lock`; two critical sections of one
// lock word are then ordered (one's release pattern synchronises with the other's acquire
// pattern, PTX ISA "Memory Consistency Model").
//
// With atomicCAS_block (-DACQUIRE=atomicCAS_block) the acquire is atomic only within a block:
// threads of two blocks may hold the lock at once and race on `total` (not with one block).
// Without the lock (-DNO_LOCK) or without the fences (-DNO_FENCE) the updates race.
#ifndef ACQUIRE
#define ACQUIRE atomicCAS
#endif

__device__ int lock;

__global__ void locked_sum(int *total, const int *in) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
#ifndef NO_LOCK
    while (ACQUIRE(&lock, 0, 1) != 0) {
    }
#endif
#ifndef NO_FENCE
    __threadfence();
#endif
    total[0] += v;
#ifndef NO_FENCE
    __threadfence();
#endif
#ifndef NO_LOCK
    atomicExch(&lock, 0);
#endif
}
