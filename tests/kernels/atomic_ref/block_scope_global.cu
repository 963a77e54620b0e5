// expect: race on hist
// --blockDim=128 --gridDim=4
// A histogram in global memory, shared by every block, updated through
// cuda::atomic_ref<unsigned, cuda::thread_scope_block>: block scope makes the additions atomic
// among the threads of one block only, so two blocks' additions to one bin race.
#include <cuda/atomic>

__global__ void histogram(const unsigned *in, unsigned *hist) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> bin(hist[in[i] % 16]);
    bin.fetch_add(1, cuda::memory_order_relaxed);
}
