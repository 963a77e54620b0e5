// expect: verified
// --blockDim=64 --gridDim=2
// Texture references were removed in CUDA 12: the file is read with CUDA 11.8's headers,
// with a note (tests/cuda12.rs).
#include <cuda.h>

texture<float, 1, cudaReadModeElementType> tex;

__global__ void fetch(float *out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = tex1Dfetch(tex, i);
}
