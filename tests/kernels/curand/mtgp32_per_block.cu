// expect: verified
// --blockDim=[16,16] --gridDim=4
// MTGP32: one state per block, all 256 threads of a (2D) block draw from it; each block has
// its own state.
__global__ void mtgp(curandStateMtgp32_t *states, float *out) {
  unsigned int t = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int i = blockIdx.x * 256 + t;
  float a = curand_uniform(&states[blockIdx.x]);
  float b = curand_normal(&states[blockIdx.x]);
  out[i] = a + b;
}
