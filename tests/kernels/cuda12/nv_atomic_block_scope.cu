// expect: race on total
// --blockDim=64 --gridDim=2
// Block scope is atomic within a block only: with two blocks the adds race; with one
// (tests/cuda12.rs), verified.
#include <cuda.h>

__global__ void count(unsigned *total) {
    __nv_atomic_add(&total[0], 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
}
