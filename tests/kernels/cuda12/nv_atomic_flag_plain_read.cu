// expect: race on ready
// --blockDim=64 --gridDim=1
// A plain read of the flag another thread stores atomically races.
#include <cuda.h>

__global__ void flag(int *ready, int *seen) {
    if (threadIdx.x == 0) {
        __nv_atomic_store_n(&ready[0], 1, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
    }
    seen[threadIdx.x] = ready[0];
}
