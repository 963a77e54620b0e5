// expect: verified
// --blockDim=64 --gridDim=4
// Each thread owns a slice of `k` (S stages of N values) and of `y`, written and read by
// unrolled loops: by index (`k[koff + j*N + i]`) and through a pointer to the stage
// (`stage(k + koff + s*N, …)`). Every access's offset is `base + c` for a literal c, so the
// linear race query reads each side's candidates as a few shapes with chosen literals.
#include <cuda.h>

#define N 12
#define S 5

__device__ void stage(float *dst, const float *src, int n) {
    for (int c = 0; c < n; c++)
        dst[c] = src[c] * 0.5f;
}

__global__ void slices(float *y, float *k) {
    int cell = blockIdx.x * blockDim.x + threadIdx.x;
    int off = cell * N;
    int koff = cell * S * N;
    for (int s = 1; s < S; s++) {
        for (int i = 0; i < N; i++) {
            float acc = y[off + i];
            for (int j = 0; j < s; j++)
                acc += k[koff + j * N + i];
            y[off + i] = acc;
        }
        stage(k + koff + s * N, y + off, N);
    }
}
