// expect: assertion
// --blockDim=256 --gridDim=64
// The same conditional, written through without the test: a null pointer may be accessed.
__global__ void adamw(float *params, float *master, unsigned n) {
  float *m = master ? master : NULL;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) m[i] = params[i];
}
