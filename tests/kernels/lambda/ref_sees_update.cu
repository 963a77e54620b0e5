// expect: race on out
// --blockDim=64 --gridDim=4
// A by-reference lambda sees the assignment made after its creation: `i` is 0 when it is
// called, so every thread writes out[0].
__global__ void k(int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto put = [&i, out](int v) { out[i] = v; };
    i = 0;
    put(threadIdx.x);
}
