// expect: verified
// --blockDim=128 --gridDim=64
// `__reduce_add_sync` over the full warp: every lane receives the warp's sum, so all lanes
// storing it to their warp's slot race benignly.
__global__ void warp_sums(unsigned *out, const unsigned *x) {
  unsigned v = x[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned s = __reduce_add_sync(0xffffffffu, v);
  out[blockIdx.x * 4 + threadIdx.x / 32] = s;
}
