// expect: verified
// --blockDim=128 --gridDim=32
// `__sincosf` writing both results through pointers into a local struct (NVIDIA's
// convolutionFFT2D twiddles), then stored at the thread's own element.
__global__ void twiddles(float2 *out, float step) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 t;
  __sincosf(step * i, &t.y, &t.x);
  out[i] = t;
}
