// expect: verified
//
// expect: race
// --strict
#include <cuda.h>

// The textbook saxpy with no launch flags: every launch CUDA allows is checked. Two threads
// share an index only in launches nobody makes: a 2-D or 3-D block of this 1-D kernel (two
// threads that differ in threadIdx.y compute the same i), or more than 2^32 threads in x (the
// unsigned product blockIdx.x * blockDim.x wraps). gpug verifies it for launches where the
// unused dimensions are 1 and gridDim.x * blockDim.x <= 2^32, lists the excluded race with
// its condition, and --strict reports that race as a defect.
__global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}
