// Thread t writes a[t * (n + 1)]: distinct for distinct t unless n + 1 wraps to 0 (n is
// UINT_MAX), when every thread writes a[0]. A race in bit-vector semantics; none under
// --no-overflow (PUG's +O).
#include <cuda.h>

__global__ void spread(unsigned n, int *a) {
    a[threadIdx.x * (n + 1)] = 1;
}
