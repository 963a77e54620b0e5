// expect: verified
// --blockDim=128 --gridDim=4
// Block scope suffices for a histogram in __shared__ memory (one per block); its bins are
// read back after a barrier and added to the global one at device scope, as a temporary
// atomic_ref.
#include <cuda/atomic>

__global__ void histogram(const unsigned *in, unsigned *hist) {
    __shared__ unsigned local[16];
    unsigned t = threadIdx.x;
    if (t < 16)
        local[t] = 0;
    __syncthreads();
    unsigned i = blockIdx.x * blockDim.x + t;
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> bin(local[in[i] % 16]);
    bin.fetch_add(1);
    __syncthreads();
    if (t < 16)
        cuda::atomic_ref<unsigned, cuda::thread_scope_device>(hist[t]).fetch_add(local[t]);
}
