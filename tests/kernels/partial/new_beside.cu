// verdicts: fill verified, make inconclusive (exit 3)
// --blockDim=64 --gridDim=2
// Two kernels: `make` allocates with device-side `new`, which gpug does not model; `fill` is
// plain. gpug reads `fill` and verifies it, and reports `make` inconclusive with the reason
// (before, the whole file was refused, exit 2).
__global__ void fill(int *a) {
    a[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

__global__ void make(int **out) {
    if (threadIdx.x == 0) {
        out[blockIdx.x] = new int[4];
    }
}
