// expect: verified
// --blockDim=128 --gridDim=4
// The fixed form of block_scope_global.cu: cuda::thread_scope_device makes the additions
// atomic among all threads of the grid.
#include <cuda/atomic>

__global__ void histogram(const unsigned *in, unsigned *hist) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> bin(hist[in[i] % 16]);
    bin.fetch_add(1, cuda::memory_order_relaxed);
}
