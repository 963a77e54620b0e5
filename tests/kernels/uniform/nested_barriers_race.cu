// expect: race
// --blockDim=32 --gridDim=4
// nested_barriers.cu without the barrier before the store: a thread's store of the next inner
// iteration (or of the next outer one) races with another thread's loads of this one.
#include <cuda.h>
__global__ void nested_barriers(float *out, const float *in) {
    __shared__ float s[32];
    int t = blockIdx.x;
    int steps = t / 2 + 1;
    for (int i = 0; i < steps; ++i) {
        float acc = 0.f;
        for (int j = 0; j <= t; j += 2) {
            s[threadIdx.x] = in[j * 32 + threadIdx.x];
            __syncthreads();
            for (int k = 0; k < 32; k++) acc += s[k];
        }
        out[(t * 4 + i) * 32 + threadIdx.x] = acc;
    }
}
