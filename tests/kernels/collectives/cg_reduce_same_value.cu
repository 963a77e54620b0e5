// expect: verified
// --blockDim=256 --gridDim=64
// Every lane of a warp stores its warp's `cg::reduce` result to one place (llm.c's
// matmul_backward_bias kernel3): the lanes of one tile receive the same value at one call, so
// their write-write race is benign.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void column_sum(float *out, float *partial, const float *x) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  float s = cg::reduce(warp, v, cg::plus<float>{});
  partial[blockIdx.x * 8 + threadIdx.x / 32] = s;
}
