// expect: race on out
// --blockDim=64 --gridDim=4
// The lambda captures `i` by reference, computed as threadIdx.x / 2: threads 2t and 2t+1
// write one element of `out` through the call.
__global__ void k(int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x / 2;
    auto put = [&](int v) { out[i] = v; };
    put(threadIdx.x);
}
