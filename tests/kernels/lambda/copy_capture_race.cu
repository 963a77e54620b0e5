// expect: race on out
// --blockDim=64 --gridDim=4
// A by-copy lambda created after `i` is set to 0: every thread's copy is 0, all write out[0].
__global__ void k(int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    i = 0;
    auto put = [i, out](int v) { out[i] = v; };
    put(threadIdx.x);
}
