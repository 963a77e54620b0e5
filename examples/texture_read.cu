// expect: verified
// --blockDim=256 --gridDim=32
#include <cuda.h>

texture<float, 1, cudaReadModeElementType> coeffs;

// Every thread reads texels (read-only texture memory, which no thread writes)
// and writes only its own element; the fetched values decide nothing.
__global__ void texture_read(float *out, cudaTextureObject_t bias, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float c = tex1Dfetch(coeffs, 0) + tex1Dfetch(coeffs, i);
    float b = tex1Dfetch<float>(bias, i);
    out[i] = c * b;
}
