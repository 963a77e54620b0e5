// expect: verified
// --blockDim=64 --gridDim=4
// With --cuda-version 11.8: a race (tests/cuda12.rs).
// A histogram as code written for CUDA 12.8 fixes it: the 12.8 branch counts with nvcc's
// built-in `__nv_atomic_fetch_add` (relaxed, device scope), the older branch with a plain
// read-modify-write, which races.
#include <cuda.h>

__global__ void histogram(const unsigned *keys, unsigned *bins) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned b = keys[i] % 16;
#if CUDA_VERSION >= 12080
    __nv_atomic_fetch_add(&bins[b], 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
#else
    bins[b] = bins[b] + 1;
#endif
}
