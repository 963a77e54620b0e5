// expect: verified
// --blockDim=32 --gridDim=2
// Sobol states seeded from direction vectors that no thread writes: `curand_init` reads the
// 32 words of the vectors and writes the thread's state, a local; a draw from a Sobol state
// reads its vectors and writes its counters. The thread's own element of `counters` gets
// the state's counter.
__global__ void quasi(curandDirectionVectors32_t *vectors, unsigned int *counters, float *out) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandStateSobol32_t s;
  curand_init(vectors[blockIdx.x], threadIdx.x, &s);
  out[i] = curand_uniform(&s);
  counters[i] = s.i;
}
