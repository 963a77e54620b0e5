// expect: unsupported at 7:5
// --blockDim=64 --gridDim=1
// Thread scope is atomic for the calling thread only: refused.
#include <cuda.h>

__global__ void count(unsigned *total) {
    __nv_atomic_fetch_add(&total[0], 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_THREAD);
}
