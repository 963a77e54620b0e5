// expect: verified
// --blockDim=256 --gridDim=16
#include <cuda.h>

// Even elements are fixed up from their odd right neighbour. The read data[i + 1]
// happens only when i is even (the `&&` short-circuits), so all reads hit odd
// indices and all writes even ones. Evaluating both operands would make odd
// thread i read data[i + 1] while thread i + 1 writes it.
__global__ void shortcircuit(int *data) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i % 2 == 0 && data[i + 1] < 0)
        data[i] = 0;
}
