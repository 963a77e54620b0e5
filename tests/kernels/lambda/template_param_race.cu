// expect: race on out
// --blockDim=64 --gridDim=4
// As template_param.cu, but the lambda writes out[j] for every thread.
template <class F> __device__ void apply(F op, int n) {
    for (int j = 0; j < n; ++j) {
        op(j);
    }
}
__global__ void k(float *out) {
    apply([&](int j) { out[j] = threadIdx.x; }, 4);
}
