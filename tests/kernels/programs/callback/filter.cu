// A whole program whose launches are made in a callback (a GLUT display function, as
// cuda-samples' boxFilter): `main.cpp` defines `main`, which only registers `display`, and
// `display` calls `run_filter`. `filter_rows` is launched there; the racy kernel below (every
// thread writes out[0]) is named nowhere else in the program: it is never launched, not
// verified.
#include <cuda_runtime.h>

__global__ void filter_rows(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.5f * in[i];
}

__global__ void unused_racy(float *out, const float *in) {
  out[0] = in[threadIdx.x];
}

extern "C" void run_filter(float *out, const float *in, int n) {
  filter_rows<<<(n + 127) / 128, 128>>>(out, in, n);
}
