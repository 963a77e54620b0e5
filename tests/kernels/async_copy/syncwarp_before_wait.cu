// expect: race on s
// --blockDim=32 --gridDim=1
// A warp barrier between an asynchronous copy and its wait does not order the copy: each
// lane reads its neighbour's element after __syncwarp() but before __pipeline_wait_prior(0),
// while the neighbour's copy may still be in flight.
#include <cuda_pipeline.h>
__global__ void k(const int *in, int *out) {
  __shared__ int s[32];
  __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], 4);
  __pipeline_commit();
  __syncwarp();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 32];
  __pipeline_wait_prior(0);
}
