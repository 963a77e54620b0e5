// expect: verified
// --blockDim=64 --gridDim=2
// Atomic loads, stores, exchanges and compare-exchanges of one flag do not race.
#include <cuda.h>

__global__ void flag(int *ready, int *seen) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) {
        __nv_atomic_store_n(&ready[0], 1, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
    }
    int expected = 0;
    bool won = __nv_atomic_compare_exchange_n(&ready[1], &expected, 1, false, __NV_ATOMIC_ACQ_REL,
                                              __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
    int old = __nv_atomic_exchange_n(&ready[2], (int)i, __NV_ATOMIC_RELAXED);
    seen[i] = __nv_atomic_load_n(&ready[0], __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE) + won + expected + old;
}
