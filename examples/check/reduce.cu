// Tree reduction of N values in shared memory by N threads, checked against a sequential sum
// (thread 0 adds the input in a loop; the loop has a concrete bound and is unrolled).
// gpug check reduce.cu --blockDim=8 --gridDim=1 -DN=8                 all assertions hold
// gpug check reduce.cu --blockDim=8 --gridDim=1 -DN=8 -DSKIP_LAST     fails: the last step is skipped
#include <cassert>

#ifndef N
#define N 8
#endif

#ifdef SKIP_LAST
#define LAST 1
#else
#define LAST 0
#endif

__global__ void reduce(const int *in, int *out) {
    __shared__ int sdata[N];
    unsigned t = threadIdx.x;
    sdata[t] = in[t];
    __syncthreads();
    for (unsigned s = N / 2; s > LAST; s >>= 1) {
        if (t < s) sdata[t] += sdata[t + s];
        __syncthreads();
    }
    if (t == 0) {
        int sum = 0;
        for (unsigned i = 0; i < N; i++) sum += in[i];
        out[0] = sdata[0];
        assert(sdata[0] == sum);
    }
}
