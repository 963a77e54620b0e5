// bank: sequential addressing is conflict-free
// --blockDim=256 --gridDim=8
// Reduction with sequential addressing (CUDA SDK reduce2): consecutive threads
// touch consecutive words in every round.
__global__ void reduce_sequential(const int *g_in, int *g_out) {
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x;
    sdata[tid] = g_in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_out[blockIdx.x] = sdata[0];
}
