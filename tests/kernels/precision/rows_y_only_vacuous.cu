#include <cuda.h>

// A kernel indexed by y only that requires blocks two threads wide in x: threads that differ
// only in threadIdx.x write the same y[i] in every launch it allows. `blockDim.x = 1` would
// exclude that race only vacuously (it contradicts the __requires): no launch contract.
__global__ void rows(int n, int *y) {
    __requires(blockDim.x == 2);
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n) {
        y[i] = 2 * y[i];
    }
}
