// expect: race on states
// --blockDim=32 --gridDim=1
// Thread 0 reads a field of its neighbour's state while the neighbour draws from it.
__global__ void peek(curandState *states, unsigned int *out) {
  unsigned int i = threadIdx.x;
  if (i == 0) {
    out[0] = states[1].d;
  } else {
    out[i] = curand(&states[i]);
  }
}
