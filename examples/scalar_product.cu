// expect: verified
// --blockDim=128 --gridDim=32
// solvers: yices z3
#include <cuda.h>
// PUG's scalarProdGPU (paper Fig. 1) with a barrier at the end of the vector loop: the
// grid-stride vector loop, the strided accumulation and the tree loop over acc. vN and eN are
// symbolic, so the vector and element loops are abstracted; the tree loop (ACC_N concrete)
// is unrolled.
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
            __syncthreads();
            for (int i = threadIdx.x; i < stride; i += blockDim.x)
                acc[i] += acc[stride + i];
        }
        if (threadIdx.x == 0) d_C[vec] = acc[0];
        __syncthreads();
    }
}
