#include <cuda.h>

// A 1-D kernel (it never reads threadIdx.y) that requires a block of two rows: threads that
// differ only in threadIdx.y write the same out[i], in every launch the kernel allows. The
// standard launch assumption `blockDim.y = 1` would exclude that race, but only vacuously (it
// contradicts the __requires), so there must be no launch contract.
__global__ void two_rows(int *out) {
    __requires(blockDim.y == 2);
    __requires(gridDim.x * blockDim.x <= 1024);
    out[blockIdx.x * blockDim.x + threadIdx.x] = out[0] + 1;
}
