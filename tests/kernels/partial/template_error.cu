// verdicts: plain verified, counted inconclusive (exit 3)
// --blockDim=64 --gridDim=1
// A template kernel whose one instantiation clang refuses (a `__shared__` variable of a class
// with a non-empty constructor, which nvcc only warns about): clang leaves the instantiation out
// of its AST, and gpug names the kernel as not read; the other kernel is verified.
struct Counter {
    int n;
    __device__ Counter() : n(0) {}
};

template <int N> __global__ void counted(int *a) {
    __shared__ Counter c;
    a[threadIdx.x] = c.n + N;
}

__global__ void plain(int *a) {
    a[threadIdx.x] = 2;
}

template __global__ void counted<4>(int *);
