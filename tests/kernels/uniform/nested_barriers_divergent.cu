// expect: divergence
// --blockDim=32 --gridDim=4
// nested_barriers.cu with an inner trip count that depends on threadIdx.x: odd threads run one
// more inner iteration, so they pass more barriers than even ones (barrier divergence).
#include <cuda.h>
__global__ void nested_barriers(float *out, const float *in) {
    __shared__ float s[32];
    int t = blockIdx.x;
    int steps = t / 2 + 1;
    for (int i = 0; i < steps; ++i) {
        float acc = 0.f;
        for (int j = 0; j <= t + (int)(threadIdx.x & 1); j += 2) {
            __syncthreads();
            s[threadIdx.x] = in[j * 32 + threadIdx.x];
            __syncthreads();
            for (int k = 0; k < 32; k++) acc += s[k];
        }
        out[(t * 4 + i) * 32 + threadIdx.x] = acc;
    }
}
