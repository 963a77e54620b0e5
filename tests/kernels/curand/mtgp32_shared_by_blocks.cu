// expect: race on states
// --blockDim=128 --gridDim=4
// Two blocks on one MTGP32 state (blocks 2k and 2k + 1 share states[k]): nothing orders
// their draws.
__global__ void mtgp_pairs(curandStateMtgp32_t *states, float *out) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = curand_uniform(&states[blockIdx.x / 2]);
}
