// expect: verified
// --blockDim=128 --gridDim=4
// Each thread seeds and draws from a state of its own (`curandState` is XORWOW): every
// call reads and writes the whole state, but only the calling thread's element.
__global__ void draw(curandState *states, float *out, unsigned long long seed) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, i, 0, &states[i]);
  unsigned int bits = curand(&states[i]);
  float u = curand_uniform(&states[i]);
  float2 n = curand_normal2(&states[i]);
  skipahead(1000ULL, &states[i]);
  out[i] = u + n.x * n.y + (float)(bits & 7u) + curand_normal(&states[i]);
}
