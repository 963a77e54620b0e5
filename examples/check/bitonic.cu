// Bitonic sort of N elements by N threads in one block (PUG paper, Fig. 1 and §7).
// gpug check bitonic.cu --blockDim=8 --gridDim=1 -DN=8      all assertions hold
// gpug check bitonic.cu --blockDim=6 --gridDim=1 -DN=6      fails: N is not a power of two
#include <assert.h>

#ifndef N
#define N 8
#endif

__global__ void bitonic(int *g) {
    __shared__ int s[N];
    unsigned i = threadIdx.x;
    s[i] = g[i];
    __syncthreads();
    for (unsigned k = 2; k <= N; k *= 2) {
        for (unsigned j = k / 2; j > 0; j /= 2) {
            unsigned ixj = i ^ j;
            if (ixj > i && ixj < N) {
                int a = s[i], b = s[ixj];
                if ((i & k) == 0 ? a > b : a < b) {
                    s[i] = b;
                    s[ixj] = a;
                }
            }
            __syncthreads();
        }
    }
    if (i + 1 < N) assert(s[i] <= s[i + 1]);
}
