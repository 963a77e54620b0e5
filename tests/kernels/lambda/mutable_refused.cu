// expect: unsupported at 7:17
// --blockDim=64 --gridDim=4
// A `mutable` lambda changes its own copies from call to call: refused.
__global__ void k(int *out) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int n = 0;
    auto next = [=]() mutable { return n++; };
    out[tid] = next();
}
