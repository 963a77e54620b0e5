// The other half: main calls tiles.cu's wrapper with the program's sizes (width 256 >= the
// 64 threads of a block, so the rows are disjoint).
#include <cuda_runtime.h>

extern "C" void run_tile(float *out, const float *in, int width, int rows);
extern "C" void run_racy(float *out);

static void step(float *out, const float *in) { run_tile(out, in, 256, 16); }

int main() {
  float *out, *in;
  cudaMalloc(&out, 256 * 16 * sizeof(float));
  cudaMalloc(&in, 256 * 16 * sizeof(float));
  step(out, in);
  cudaDeviceSynchronize();
  return 0;
}
