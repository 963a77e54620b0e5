#include <cuda.h>

// A do-while loop left by a uniform `break` after its first barrier or by its test after the
// whole iteration: a thread that leaves by the test has read its neighbour's s after the last
// barrier, and right after the loop each writes its own s: a race through the test's exit
// (the exit count must allow both positions, not only the `break`'s).
__global__ void rounds(int *out, int n, int limit) {
    __shared__ int s[256];
    int k = 0;
    int y = 0;
    do {
        __syncthreads();
        if (k == limit) break;
        s[threadIdx.x] = k;
        __syncthreads();
        y = s[(threadIdx.x + 1) % 256];
        k++;
    } while (k < n);
    s[threadIdx.x] = y;
    out[threadIdx.x] = y;
}
