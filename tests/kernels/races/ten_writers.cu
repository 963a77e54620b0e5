// expect: race pairs at most 8, more
// --blockDim=32 --gridDim=1
// Ten stores of different values to one word, each by every thread: 55 racing pairs of
// source locations, of which the report lists 8 and says that there are more.
#include <cuda_runtime.h>

__global__ void ten_writers(int *out) {
    __shared__ int s[1];
    int t = threadIdx.x;
    s[0] = t;
    s[0] = t + 1;
    s[0] = t + 2;
    s[0] = t + 3;
    s[0] = t + 4;
    s[0] = t + 5;
    s[0] = t + 6;
    s[0] = t + 7;
    s[0] = t + 8;
    s[0] = t + 9;
    __syncthreads();
    out[t] = s[0];
}
