// expect: unsupported at 6:21
// --blockDim=64 --gridDim=4
// An init-capture (`[j = e]`) is refused.
__global__ void k(int *out) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    auto put = [j = tid + 1](int v) { /* */ };
    put(0);
    out[tid] = 0;
}
