// launches: verified
//
#include <cuda_runtime.h>

// A reduction written for T threads per block: each block sums data[b * T .. b * T + T) in
// shared memory and clears the slice it read. Launched as reduce<256><<<g, 256>>>, as written.
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
    cudaMalloc(&data, blocks * 256 * sizeof(int));
    cudaMalloc(&sums, blocks * sizeof(int));
    reduce<256><<<blocks, 256>>>(data, sums);
    cudaDeviceSynchronize();
    return 0;
}
