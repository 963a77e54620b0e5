// expect: verified
// --blockDim=64 --gridDim=4
// A lambda given to a device function template's parameter and called there.
template <class F> __device__ void apply(F op, int n) {
    for (int j = 0; j < n; ++j) {
        op(j);
    }
}
__global__ void k(float *out) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    apply([&](int j) { out[4 * tid + j] = 1.0f; }, 4);
}
