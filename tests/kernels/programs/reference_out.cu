// cuda-samples' computeGridSize: the block and grid sizes come back through reference
// parameters. The callee's values are written back (256 threads, (n + 255) / 256 blocks),
// so the launch is main's: 4 blocks of 256. Before, both were unknown after the call and the
// launch was symbolic.
#include <cstdlib>

__global__ void wrap(float *d, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i % 1024] = i;
}

static unsigned div_up(unsigned a, unsigned b) { return (a + b - 1) / b; }

void computeGridSize(unsigned n, unsigned blockSize, unsigned &numBlocks, unsigned &numThreads) {
  numThreads = n < blockSize ? n : blockSize;
  numBlocks = div_up(n, numThreads);
}

int main() {
  unsigned n = 1024;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  unsigned blocks, threads;
  computeGridSize(n, 256, blocks, threads);
  wrap<<<blocks, threads>>>(d, n);
  return 0;
}
