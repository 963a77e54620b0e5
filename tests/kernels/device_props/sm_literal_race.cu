// A race whose size parameter the host passes as a literal (`n = 1000`), at a grid of one
// block per SM: threads i and i + 64 of a block store to one slot. The relations the launch
// contracts suggest (`n % blockDim.x == 0`, `n <= gridDim.x * blockDim.x`, `n >= 1`) are facts
// of this launch, true or false, not contracts a caller could meet: none is asked.
__global__ void fill(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i % 64] = i;
}

int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int *out;
    cudaMalloc(&out, 64 * sizeof(int));
    fill<<<prop.multiProcessorCount, 128>>>(out, 1000);
    cudaDeviceSynchronize();
    return 0;
}
