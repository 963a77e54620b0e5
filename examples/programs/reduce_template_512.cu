// launches: race
//
#include <cuda_runtime.h>

// reduce_template.cu launched with 512 threads per block for reduce<256>: block b's threads
// 256..511 clear data[(b + 1) * 256 ..], which block b + 1 reads and clears: a race between
// blocks at the launch the program makes.
template <unsigned T>
__global__ void reduce(int *data, int *sums) {
    __shared__ int s[T];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * T + t;
    s[t] = data[i];
    __syncthreads();
    for (unsigned k = T / 2; k > 0; k >>= 1) {
        if (t < k) {
            s[t] += s[t + k];
        }
        __syncthreads();
    }
    data[i] = 0;
    if (t == 0) {
        sums[blockIdx.x] = s[0];
    }
}

int main() {
    int *data, *sums;
    const int blocks = 64;
    cudaMalloc(&data, (blocks + 1) * 512 * sizeof(int));
    cudaMalloc(&sums, blocks * sizeof(int));
    reduce<256><<<blocks, 512>>>(data, sums);
    cudaDeviceSynchronize();
    return 0;
}
