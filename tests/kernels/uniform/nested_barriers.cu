// expect: verified
// --blockDim=32 --gridDim=4
// llm.c's softmax_autoregressive_backward_kernel6 (dev/cuda/attention_backward.cu): two nested
// loops whose trip counts depend on blockIdx.x only, with barriers in the inner one. Every
// thread of a block runs the same barriers in each outer iteration, so the outer loop runs no
// fixed number of barriers per iteration but the two threads of a block pass them in step.
#include <cuda.h>
__global__ void nested_barriers(float *out, const float *in) {
    __shared__ float s[32];
    int t = blockIdx.x;
    int steps = t / 2 + 1;
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
