// expect: race pairs 12-13 12-14 14-14
// --blockDim=64 --gridDim=1
// Three racing pairs of source locations on one array, none ordered by a barrier: each
// thread's store to its own element against its neighbour's load of it (lines 12, 13), every
// thread's store to s[0] against thread 0's store at line 12 (lines 12, 14), and the stores
// to s[0] of two threads, which write values read from memory (line 14 with itself).
#include <cuda_runtime.h>

__global__ void three_pairs(int *out) {
    __shared__ int s[65];
    int t = threadIdx.x;
    s[t] = t;
    int x = s[t + 1];
    s[0] = x;
    out[t] = x;
}
