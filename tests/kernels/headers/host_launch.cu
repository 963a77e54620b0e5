// A file as nvcc users write it: host code that allocates, launches a template kernel with
// `<<<…>>>` (which instantiates it) and copies back, over NVIDIA's runtime API; `max` and `min`
// in host code are nvcc's host overloads.
#include <cuda_runtime.h>
#include <cstdio>

template <int BLOCK>
__global__ void scale(float *data, float by) {
  unsigned i = blockIdx.x * BLOCK + threadIdx.x;
  data[i] = data[i] * by;
}

int main() {
  float *d = nullptr;
  cudaMalloc((void **)&d, 1024 * sizeof(float));
  int blocks = max(1024 / 256, 1);
  float by = min(2.0f, 4.0f);
  scale<256><<<blocks, 256>>>(d, by);
  cudaDeviceSynchronize();
  float h[1024];
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  cudaFree(d);
  return 0;
}
