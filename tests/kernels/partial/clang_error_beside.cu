// verdicts: broken inconclusive, racy race, fine verified (exit 1)
// --blockDim=64 --gridDim=2
// Three kernels: `broken` calls a device function clang cannot compile (an undeclared name),
// `racy` has a race, `fine` has none. gpug reads `racy` and `fine` and reports `broken`
// inconclusive with clang's error (before, clang's error refused the whole file, exit 2).
__device__ int helper(int x) {
    return x + undeclared_in_this_file;
}

__global__ void broken(int *a) {
    a[threadIdx.x] = helper(threadIdx.x);
}

__global__ void racy(int *a) {
    a[0] = threadIdx.x;
}

__global__ void fine(int *a) {
    a[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
