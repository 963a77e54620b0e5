// expect: race on s
// --blockDim=64 --gridDim=1
// memset of the thread's own slot races with the neighbour's read of it (no barrier).
__global__ void k(int *out) {
  __shared__ int s[64];
  memset(&s[threadIdx.x], 0, sizeof(int));
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
