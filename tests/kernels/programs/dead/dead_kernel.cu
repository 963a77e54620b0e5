// A whole program: main launches `scale`. The first racy kernel (every thread writes out[0])
// is never launched and named nowhere else, so it is dead code and not verified. The second
// is not launched either, but its name occurs in a comment below: gpug cannot tell that from
// a launch it cannot read, so it is verified for every launch, and its race is reported.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

__global__ void unused_racy(float *out, const float *in) {
  out[0] = in[threadIdx.x];
}

__global__ void named_racy(float *out, const float *in) {
  out[0] = in[threadIdx.x];
}

// launched by a driver-API loader elsewhere: named_racy
int main() {
  const int n = 1024;
  float *x;
  cudaMalloc(&x, n * sizeof(float));
  scale<<<(n + 255) / 256, 256>>>(x, n);
  cudaFree(x);
  return 0;
}
