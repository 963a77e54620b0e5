// A grid-stride loop that strides by the block only: thread g's elements g, g + blockDim.x, ...
// meet those of the thread one block further, an inter-block write-write race at any block size.
#include <cuda.h>

__global__ void scale(unsigned n, float a, float *y) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x) {
        y[i] = a * y[i];
    }
}
