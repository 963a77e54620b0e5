// expect: verified
// --blockDim=[*,1,1] --gridDim=[*,1,1] --no-overflow
// expect: race
// --blockDim=[*,1,1] --gridDim=[*,1,1] --strict
// expect: verified
// --blockDim=[*,1,1] --gridDim=[*,1,1]
#include <cuda.h>

// Without --no-overflow its race needs more than 2^32 threads in x (the index wraps): a launch
// contract excludes it (verified for launches where gridDim.x * blockDim.x <= 2^32), and
// --strict reports it.

// The simplest kernel there is, under a symbolic 1-D launch: thread i = b*D + t scales v[i].
// Two threads share an index only when the product b*D wraps, which needs more than 2^31
// threads: with --no-overflow (PUG's +O) no two threads collide; without it the race of a
// launch of 2^31 threads or more is reported.
__global__ void scale(float *v, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        v[i] = s * v[i];
    }
}
