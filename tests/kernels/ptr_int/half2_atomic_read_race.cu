// expect: race on sums
// --blockDim=64 --gridDim=2
// `atomicAdd(__half2 *, __half2)` is atomic only with other atomics: thread 0 of each block
// reads the pair with a plain load while other blocks' threads may still be adding to it.
#include <cuda_fp16.h>

__global__ void half2_atomic_read_race(half2 *sums, const half2 *in, half2 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&sums[i % 8], in[i]);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = sums[0];
  }
}
