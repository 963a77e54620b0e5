// expect: verified
// --blockDim=64 --gridDim=1
// The fixed form of kernel_param_race.cu: the lambda shifts each index by a value it
// captured on the host (the same in every thread, any value), so no two threads meet.
template <typename F>
__global__ void scatter(int *a, F f) {
    unsigned t = threadIdx.x;
    a[f(t)] = t;
}

void launch(int *a, unsigned k) {
    scatter<<<1, 64>>>(a, [k] __device__(unsigned x) { return x + k; });
}
