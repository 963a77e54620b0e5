// expect: verified
// --blockDim=64 --gridDim=2
// As race_in_one_branch.cu, but through `out` each thread writes an element of its own: the
// accesses go to the array the pointer points to, each race-free.
__global__ void both_branches_ok(int *out, int mode) {
  __shared__ int tile[64];
  int *p = tile;
  unsigned int i = threadIdx.x;
  if (mode) {
    p = out;
    i = blockIdx.x * blockDim.x + threadIdx.x;
  }
  p[i] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] += tile[(threadIdx.x + 1) % 64];
}
