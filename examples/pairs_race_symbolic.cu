// expect: race
//
// expect: race
// --strict
#include <cuda.h>

// Racy in every launch with two threads in a block, whatever the contract: threads 2k and
// 2k+1 both write out[k]. The standard launch assumptions (unused dimensions 1, no index
// wrap) do not exclude it, so it stays a defect with no condition.
__global__ void pairs(int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i / 2] = i;
}
