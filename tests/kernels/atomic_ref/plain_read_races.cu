// expect: race on total
// --blockDim=128 --gridDim=1
// An atomic_ref's additions do not order a plain read of the same location by another
// thread in the same barrier interval: a race.
#include <cuda/atomic>

__global__ void sum(const int *in, int *total, int *out) {
    unsigned t = threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> acc(*total);
    acc.fetch_add(in[t]);
    if (t == 0)
        out[0] = *total;
}
