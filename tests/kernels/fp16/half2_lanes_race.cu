// expect: race on v
// --blockDim=64 --gridDim=4
// Both threads of a pair write lane y of the same half2.
#include <cuda_fp16.h>

__global__ void k(__half2 *v, const __half *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i / 2].y = a[i];
}
