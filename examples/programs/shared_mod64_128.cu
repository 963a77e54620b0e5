// launches: race
//
#include <cuda_runtime.h>

// shared_mod64.cu launched with 128 threads per block: threads t and t + 64 both write
// s[t % 64] in the first barrier interval, a race at the launch the program makes.
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
    const int threads = 128;
    cudaMalloc(&in, blocks * threads * sizeof(int));
    cudaMalloc(&out, blocks * threads * sizeof(int));
    stage<<<blocks, threads>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
