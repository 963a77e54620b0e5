// expect: race on a
// --blockDim=64 --gridDim=1
// A __device__ lambda passed to a template kernel: each thread writes the element the lambda
// maps its index to, and x / 2 maps two threads to one element.
template <typename F>
__global__ void scatter(int *a, F f) {
    unsigned t = threadIdx.x;
    a[f(t)] = t;
}

void launch(int *a) {
    scatter<<<1, 64>>>(a, [] __device__(unsigned x) { return x / 2; });
}
