// expect: race
// --blockDim=128 --gridDim=32
// solvers: yices z3
#include <cuda.h>

// Not cvc5: cvc5 1.0.3 takes 54-67 s on the race query of acc (the exact script alone, one
// core) since the encoder names each distinct term once, against 15-35 s before: at the
// per-query limit of 60 s, as for the two other scalar_product examples.

// PUG's scalarProdGPU (paper Fig. 1) without the barrier of the tree loop: one level of the
// tree reads acc[stride + i] while another thread still writes it for the level before, and
// the first level reads what the accumulation loop writes.
#define ACC_N 128

__global__ void scalarProdGPU(float *d_C, float *d_A, float *d_B, int vN, int eN) {
    __shared__ float acc[ACC_N];
    for (int vec = blockIdx.x; vec < vN; vec += gridDim.x) {
        int vBase = eN * vec;
        int vEnd = vBase + eN;
        for (int i = threadIdx.x; i < ACC_N; i += blockDim.x) {
            float sum = 0;
            for (int pos = vBase + i; pos < vEnd; pos += ACC_N)
                sum += d_A[pos] * d_B[pos];
            acc[i] = sum;
        }
        for (int stride = ACC_N / 2; stride > 0; stride >>= 1) {
            // (no barrier: a level reads acc[stride + i] that the level before may still write)
            for (int i = threadIdx.x; i < stride; i += blockDim.x)
                acc[i] += acc[stride + i];
        }
        if (threadIdx.x == 0) d_C[vec] = acc[0];
        __syncthreads();
    }
}
