// Scalar product of two N-vectors by N threads (products, then a tree sum), checked for
// equivalence with the sequential loop for this small instance (PUG §7, "equivalence for small
// instances").
// gpug check scalar_product.cu --blockDim=4 --gridDim=1 -DN=4    all assertions hold
#include <assert.h>

#ifndef N
#define N 4
#endif

__global__ void scalar_product(const int *a, const int *b, int *out) {
    __shared__ int prod[N];
    unsigned t = threadIdx.x;
    prod[t] = a[t] * b[t];
    __syncthreads();
    for (unsigned s = N / 2; s > 0; s >>= 1) {
        if (t < s) prod[t] += prod[t + s];
        __syncthreads();
    }
    if (t == 0) {
        out[0] = prod[0];
        int seq = 0;
        for (unsigned i = 0; i < N; i++) seq += a[i] * b[i];
        assert(out[0] == seq);
    }
}
