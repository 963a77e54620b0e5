// expect: verified
// --blockDim=64 --gridDim=2
// Philox states, one per thread: four numbers at a time, and the whole-state copy in and out.
__global__ void four_at_a_time(curandStatePhilox4_32_10_t *states, float4 *u, float4 *n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t s = states[i];
  u[i] = curand_uniform4(&s);
  n[i] = curand_normal4(&s);
  states[i] = s;
}
