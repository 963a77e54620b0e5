// launches: verified
//
#include <cuda_runtime.h>

// `s[threadIdx.x % 64]` is one slot per thread only when a block has at most 64 threads: for
// every launch CUDA allows (gpug --launch symbolic) threads t and t + 64 race on it. The host
// code launches 64 threads per block, where the kernel is race-free.
__global__ void stage(const int *in, int *out) {
    __shared__ int s[64];
    unsigned t = threadIdx.x;
    s[t % 64] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[63 - t % 64];
}

int main() {
    int *in, *out;
    const int blocks = 32;
    cudaMalloc(&in, blocks * 64 * sizeof(int));
    cudaMalloc(&out, blocks * 64 * sizeof(int));
    stage<<<blocks, 64>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
