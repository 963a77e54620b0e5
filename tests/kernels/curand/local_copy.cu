// expect: verified
// --blockDim=256 --gridDim=2
// The usual pattern: copy the thread's state to a local, draw from the local, write it back.
// The local is private to the thread; the copies in and out touch only the thread's element.
__global__ void local_copy(curandStateMRG32k3a_t *states, double *out, int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandStateMRG32k3a_t local = states[i];
  double sum = 0.0;
  for (int k = 0; k < n; k++) {
    sum += curand_uniform_double(&local);
  }
  out[i] = sum + curand_log_normal_double(&local, 0.0, 1.0);
  states[i] = local;
}
