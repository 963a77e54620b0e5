// expect: verified
// --blockDim=64 --gridDim=16 --unroll=0
#include <cuda.h>

// PUG section 6.2: i halves while j doubles, so j never reaches past n and thread t's writes
// s[t*n + j] stay inside its own row of n elements (j in [1, n]). Loop abstraction keeps the
// closed forms i = n >> it and j = 1 << it of the iteration count it (`--unroll=0` keeps the
// loop from being unrolled, to show the abstraction).
__global__ void halving_doubling(int *out) {
    __shared__ int s[64 * 65];
    int j = 1;
    int n = blockDim.x;
    for (int i = n; i > 1; i >>= 1) {
        s[threadIdx.x * n + j] = i;
        j = j * 2;
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x * n + 1];
}
