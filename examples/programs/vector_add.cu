// launches: verified
//
#include <cstdio>
#include <cuda_runtime.h>

// A whole program: the kernel and the main that launches it. gpug reads the launch
// `vector_add<<<(n + 255) / 256, 256>>>(…, n)`: blockDim = (256, 1, 1), gridDim = (4096, 1, 1)
// and n = 1048576, and verifies the kernel at that launch.
#define N (1 << 20)
#define THREADS 256

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

int main() {
    const int n = N;
    float *a, *b, *c;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    int blocks = (n + THREADS - 1) / THREADS;
    vector_add<<<blocks, THREADS>>>(a, b, c, n);
    cudaDeviceSynchronize();
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return 0;
}
