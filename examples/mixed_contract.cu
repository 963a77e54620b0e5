// expect: race
//
// expect: race
// --strict
#include <cuda.h>

// Two races of different kinds in one 1-D kernel. `counts[i] += 1` races only when two
// threads share i: in a 2-D block (threads that differ in threadIdx.y), or when the unsigned
// index wraps past 2^32 threads. `out[i / 2] = i` races in every launch with two threads
// (threads 2k and 2k+1). The kernel is a defect for the race on out; the race on counts is
// listed apart, with the launches it needs; --strict reports both as defects.
__global__ void mixed(int *counts, int *out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    counts[i] += 1;
    out[i / 2] = i;
}
