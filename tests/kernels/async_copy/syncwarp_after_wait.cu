// expect: verified
// --blockDim=32 --gridDim=1
// syncwarp_before_wait.cu fixed: each lane waits for its copy, then the warp barrier orders
// the copies before the neighbour's read.
#include <cuda_pipeline.h>
__global__ void k(const int *in, int *out) {
  __shared__ int s[32];
  __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], 4);
  __pipeline_commit();
  __syncwarp();
  __pipeline_wait_prior(0);
  __syncwarp();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 32];
}
