// expect: race
// --blockDim=64 --gridDim=16 --unroll=0
#include <cuda.h>

// The halving/doubling pattern of PUG section 6.2 started at i = 4n instead of n: j doubles two
// more times, up to 2n, so thread t's write s[t*n + 2n] lands in the row of thread t+2, which
// writes s[(t+2)*n + n] itself: a race between threads of different iterations.
__global__ void halving_doubling(int *out) {
    __shared__ int s[64 * 65];
    int j = 1;
    int n = blockDim.x;
    for (int i = 4 * n; i > 1; i >>= 1) {
        s[threadIdx.x * n + j] = i;
        j = j * 2;
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x * n + 1];
}
