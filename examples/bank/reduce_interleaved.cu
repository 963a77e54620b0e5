// bank: interleaved addressing conflicts (worst 8-way, when s = 4)
// --blockDim=256 --gridDim=8
// Reduction with interleaved addressing (CUDA SDK reduce1): active threads are
// contiguous, but the addresses they touch are 2*s words apart.
__global__ void reduce_interleaved(const int *g_in, int *g_out) {
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x;
    sdata[tid] = g_in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned index = 2 * s * tid;
        if (index < blockDim.x) sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0) g_out[blockIdx.x] = sdata[0];
}
