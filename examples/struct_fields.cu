// expect: verified
// --blockDim=64 --gridDim=[4,1,1]
#include <cuda.h>

struct Range {
    int begin;
    int end;
};

// Every thread fills its own 4-element chunk [4g, 4g + 4) described by a local
// struct; the chunks of different threads are disjoint.
__global__ void struct_fields(int *data) {
    struct Range r;
    r.begin = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    r.end = r.begin + 4;
    for (int k = 0; k < 4; k++)
        data[r.begin + k] = r.end - k;
}
