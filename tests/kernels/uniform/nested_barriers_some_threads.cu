// expect: divergence
// --blockDim=32 --gridDim=4
// nested_barriers.cu run by half of each block only: the loops are uniform, but the threads
// that skip them never reach their barriers (barrier divergence).
#include <cuda.h>
__global__ void nested_barriers(float *out, const float *in) {
    __shared__ float s[32];
    int t = blockIdx.x;
    int steps = t / 2 + 1;
    if (threadIdx.x < 16) {
        for (int i = 0; i < steps; ++i) {
            float acc = 0.f;
            for (int j = 0; j <= t; j += 2) {
                __syncthreads();
                s[threadIdx.x] = in[j * 32 + threadIdx.x];
                __syncthreads();
                for (int k = 0; k < 32; k++) acc += s[k];
            }
            out[(t * 4 + i) * 32 + threadIdx.x] = acc;
        }
    }
}
