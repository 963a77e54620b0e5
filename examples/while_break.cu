// expect: verified
// --blockDim=128 --gridDim=32
#include <cuda.h>

// A while loop left by break: each thread walks its own stride of data until it finds a
// negative value or runs out of elements, and records where it stopped. The break at the top is
// the loop's exit test; the one in the middle only ends the walk early.
__global__ void first_negative(const int *data, int n, int *stop) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned i = t;
    while (true) {
        if (i >= (unsigned)n) break;
        if (data[i] < 0) break;
        i += blockDim.x * gridDim.x;
    }
    stop[t] = i;
}
