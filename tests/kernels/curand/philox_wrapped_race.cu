// expect: race on states
// --blockDim=64 --gridDim=1
// Philox states indexed modulo 32 with 64 threads: threads t and t + 32 share a state.
__global__ void wrapped(curandStatePhilox4_32_10_t *states, uint4 *out) {
  curandStatePhilox4_32_10_t *s = &states[threadIdx.x % 32];
  out[threadIdx.x] = curand4(s);
}
