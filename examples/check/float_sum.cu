// A tree sum of 4 floats compared with the sequential sum: float addition is not associative,
// so with --float ieee the assertion fails (and the witness shows inputs where the sums differ).
// gpug check float_sum.cu --blockDim=4 --gridDim=1 --float ieee      fails
#include <assert.h>

#ifndef N
#define N 4
#endif

__global__ void float_sum(const float *in, float *out) {
    __shared__ float s[N];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (unsigned k = N / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) {
        float seq = 0.0f;
        for (unsigned i = 0; i < N; i++) seq += in[i];
        out[0] = s[0];
        assert(s[0] == seq);
    }
}
