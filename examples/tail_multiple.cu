// expect: race
//
// expect: verified
// --assume=n%blockDim.x==0
#include <cuda.h>

// Scales v[0..n) with one thread per element, and clears the first element of the partial
// tile at the end (a tile is blockDim.x elements). When n is a multiple of blockDim.x there
// is no partial tile and no race; otherwise thread 0 of block 0 writes v[n - n % blockDim.x],
// which another thread scales in the same launch. gpug reports the race with its condition
// ("only when n % blockDim.x != 0") and suggests --assume 'n % blockDim.x == 0', which it
// has checked verifies the kernel; it never assumes it.
__global__ void tail(float *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int last = n - n % blockDim.x;
    if (i < n) {
        v[i] = 2.0f * v[i];
    }
    if (i == 0 && last < n) {
        v[last] = 0.0f;
    }
}
