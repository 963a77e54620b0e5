// expect: divergence
// --blockDim=256 --gridDim=1
// The MTGP32 draw synchronizes the block inside: called by half of the threads only, it is a
// barrier that the other half does not reach.
__global__ void mtgp_half(curandStateMtgp32_t *state, unsigned int *out) {
  if (threadIdx.x < 128) {
    out[threadIdx.x] = curand(state);
  }
}
