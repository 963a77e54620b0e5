#include <cuda.h>

// Every thread copies in[0] to out[0]: one value, read from memory. A race under GPUVerify's
// default (adversarial) abstraction, benign under --equality-abstraction.
__global__ void copy_first(int *out, const int *in) {
    out[0] = in[0];
}
