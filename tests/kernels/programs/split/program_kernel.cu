// A kernel fragment: refused alone, verified through program.cu (race-free: the barrier
// separates the writes of t from the reads).
__global__ void reverse_tile(real *out, const real *in) {
  __shared__ real t[TILE];
  t[threadIdx.x] = in[blockIdx.x * TILE + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * TILE + threadIdx.x] = t[TILE - 1 - threadIdx.x];
}
