// expect: race on vectors
// --blockDim=32 --gridDim=1
// As sobol_own_state.cu, but thread 31 overwrites a word of the direction vectors that the
// other threads' `curand_init` read.
__global__ void quasi_race(curandDirectionVectors32_t *vectors, float *out) {
  unsigned int i = threadIdx.x;
  if (i == 31) {
    vectors[0][17] = 0u;
  } else {
    curandStateScrambledSobol32_t s;
    curand_init(vectors[0], 7u, i, &s);
    out[i] = curand_uniform(&s);
  }
}
