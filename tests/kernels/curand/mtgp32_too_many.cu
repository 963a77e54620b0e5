// expect: race on states
// --blockDim=320 --gridDim=2
// MTGP32 serves at most 256 threads of a block: with 320, threads t and t + 256 draw the
// same word of the state.
__global__ void mtgp_big(curandStateMtgp32_t *states, unsigned int *out) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = curand(&states[blockIdx.x]);
}
