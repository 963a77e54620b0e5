#include <cuda.h>

// A uniform `break` between the loop's two barriers: every thread leaves after the first
// barrier of the same iteration, having read its neighbour's s; right after the loop each
// writes its own s with no barrier in between: a read-write race in the interval the break
// leaves open (the exit's barrier count is past the first barrier, not at an iteration's
// start).
__global__ void steps(int *out, int n, int limit) {
    __shared__ int s[256];
    int x = 0;
    for (int k = 0; k < n; k++) {
        s[threadIdx.x] = k;
        __syncthreads();
        x = s[(threadIdx.x + 1) % 256];
        if (k == limit) break;
        __syncthreads();
    }
    s[threadIdx.x] = x;
    out[threadIdx.x] = x;
}
