// launches: verified race
//
#include <cuda_runtime.h>

// One kernel launched twice, from a helper that main calls with two block sizes. The kernel
// strides its blocks by TILE = 128 elements: at 128 threads per block each element has one
// thread (verified); at 256, threads 128..255 of block b write the elements of block b + 1,
// other values than block b + 1's threads write (a race between blocks). gpug verifies each
// launch on its own and names it.
#define TILE 128

__global__ void fill(int *data, int value) {
    unsigned i = blockIdx.x * TILE + threadIdx.x;
    data[i] = value + threadIdx.x;
}

void run(int *data, int n, int threads) {
    fill<<<n / TILE, threads>>>(data, 7);
}

int main() {
    int *data;
    const int n = 1 << 16;
    cudaMalloc(&data, (n + 256) * sizeof(int));
    run(data, n, 128);
    run(data, n, 256);
    cudaDeviceSynchronize();
    return 0;
}
