#include <cuda.h>

// A kernel that reads no thread or block index: every thread writes out[0]. Pinning x as well
// as y and z would leave a launch of one thread; x stays symbolic and the race is reported.
__global__ void all_write(int *out, int v) {
    out[0] = out[0] + v;
}
