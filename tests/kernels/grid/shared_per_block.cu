// Each block has its own `s`: block 0 stores 1 and block 1 stores 0, so both blocks' first
// threads write out[1] (with different values). Threads of different blocks must not be given
// one value of `s`, or the two writes look disjoint.
__global__ void per_block(int *out) {
  __shared__ int s;
  if (threadIdx.x == 0)
    s = 1 - (int)blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 0)
    out[s + blockIdx.x] = blockIdx.x;
}
