// expect: race on out
// --blockDim=128 --gridDim=64
// As reduce_add_sync.cu, but all four warps of the block store to one place: their sums
// differ, a race.
__global__ void warp_sums(unsigned *out, const unsigned *x) {
  unsigned v = x[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned s = __reduce_add_sync(0xffffffffu, v);
  out[blockIdx.x] = s;
}
