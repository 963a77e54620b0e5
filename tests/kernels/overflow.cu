// Thread t writes t to a[t * (n + 1)]: distinct for distinct t unless n + 1 wraps to 0 (n is
// UINT_MAX), when every thread writes its own value to a[0]. A race in bit-vector semantics
// (not a benign one: the values differ); none under --no-overflow (PUG's +O).
#include <cuda.h>

__global__ void spread(unsigned n, int *a) {
    a[threadIdx.x * (n + 1)] = threadIdx.x;
}
