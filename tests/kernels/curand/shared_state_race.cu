// expect: race on states
// --blockDim=64 --gridDim=2
// Every thread of a block draws from the block's one XORWOW state: the draws of two threads
// of a block write the same state.
__global__ void per_block_state(curandStateXORWOW_t *states, float *out) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = curand_uniform(&states[blockIdx.x]);
}
