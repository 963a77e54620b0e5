// bank: 8-byte elements on 4-byte banks: 2-way
// --blockDim=64 --gridDim=1
// Each double spans two bank words: 32 lanes touch 64 words, two per bank.
__global__ void doubles(double *out, const double *in) {
    __shared__ double d[64];
    unsigned tid = threadIdx.x;
    d[tid] = in[tid];
    __syncthreads();
    out[tid] = d[63 - tid];
}
