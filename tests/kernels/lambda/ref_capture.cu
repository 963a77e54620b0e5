// expect: verified
// --blockDim=64 --gridDim=4
// A by-reference lambda (`[&]`) held in a local and called twice: each thread writes its own
// element of `out`, through the captured pointer and index.
__global__ void k(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto put = [&](int v) { out[i] = v + n; };
    put(1);
    put(2);
}
