// expect: inconclusive
// --blockDim=64 --gridDim=1
// A recursive function with a result (the depth it counted down from), each thread writing
// its own element: the calls followed are checked, the deeper ones cut.
__device__ int count(int n) {
    return n <= 0 ? 0 : count(n - 1) + 1;
}

__global__ void k(int *a, int n) {
    a[threadIdx.x] = count(n);
}
