// launches: race
//
#include <cuda_runtime.h>

// The kernel reads only threadIdx.x, but the host launches dim3 block(32, 8): the 8 threads
// (x, 0..7) of a block all write tmp[i]. For a symbolic launch, the launch contract assumes
// blockDim.y = 1 for a dimension the kernel never reads, and verifies it "for launches where
// blockDim.y = 1"; at the launch the program makes, it is a race.
__global__ void square(const float *in, float *tmp, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        tmp[i] = in[i] * in[i];
    }
}

int main() {
    const int n = 4096;
    float *in, *tmp;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&tmp, n * sizeof(float));
    dim3 block(32, 8);
    dim3 grid(n / 32);
    square<<<grid, block>>>(in, tmp, n);
    cudaDeviceSynchronize();
    return 0;
}
