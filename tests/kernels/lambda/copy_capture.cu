// expect: verified
// --blockDim=64 --gridDim=4
// A by-copy lambda (`[=]`) keeps the value `i` had where it was created: `i` is changed to
// `0` afterwards (a by-reference capture would make every thread write out[0]), but the lambda's copy still
// indexes each thread's own element.
__global__ void k(int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto put = [=](int v) { out[i] = v; };
    i = 0;
    put(1);
}
