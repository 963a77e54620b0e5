// expect: unsupported at 7:5
// --blockDim=32 --gridDim=1
// Thread scope (atomic for the calling thread only) is refused, as for __nv_atomic_*.
#include <cuda/atomic>

__global__ void own(int *counter) {
    cuda::atomic_ref<int, cuda::thread_scope_thread> c(counter[threadIdx.x]);
    c.fetch_add(1);
}
