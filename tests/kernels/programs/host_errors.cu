// A kernel whose file's host code clang rejects and nvcc accepts (the launch's `<< <` spacing,
// an identifier a host library would define): the kernel is still verified.
__global__ void scale(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

static double seconds_since(long start) { return (double)(wall_clock_ticks() - start) / TICKS; }

int main() {
  float *out = 0, *in = 0;
  int n = 1 << 20;
  scale<< <(n + 255) / 256, 256>> >(out, in, n);
  return (int)seconds_since(0);
}
