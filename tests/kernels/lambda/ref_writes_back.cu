// expect: verified
// --blockDim=64 --gridDim=4
// The lambda writes a captured local (`[&]`) in a loop; the result is each thread's own
// index, read after the calls.
__global__ void k(int *out, const int *in) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int acc = 0;
    auto add = [&](int t) { acc += in[t]; };
    for (int j = 0; j < 4; ++j) {
        add(tid);
    }
    out[tid] = acc;
}
