// verdicts: shift race (exit 1)
// --blockDim=64 --gridDim=1
// `__shared__ alignas(16) float t[64];` as nvcc accepts it (cuda-samples'
// globalToShmemAsyncCopy): clang refuses `alignas` after `__shared__` but keeps the array,
// shared, with every use; an alignment changes no access, so gpug reads the kernel. The
// neighbour read before the barrier is a race.
__global__ void shift(const float *in, float *out) {
    __shared__ alignas(16) float t[64];
    t[threadIdx.x] = in[threadIdx.x];
    out[threadIdx.x] = t[(threadIdx.x + 1) % 64];
    __syncthreads();
}
