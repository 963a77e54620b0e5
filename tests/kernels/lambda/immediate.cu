// expect: verified
// --blockDim=64 --gridDim=4
// A lambda called where it is created, `[&] { … }()`.
__global__ void k(int *out) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    [&] { out[tid] = tid; }();
}
