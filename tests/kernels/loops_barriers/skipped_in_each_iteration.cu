// expect: divergence at line 7, once: each of the loop's four copies of the barrier diverges
//--blockDim=64 --gridDim=1
__global__ void skipped_in_each_iteration(int *a, int n) {
    for (int i = 0; i < 4; i++) {
        a[threadIdx.x + i * blockDim.x] = i;
        if (threadIdx.x < n) {
            __syncthreads();
        }
    }
}
