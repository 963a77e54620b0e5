// expect: race on out
// --blockDim=256 --gridDim=64
// Every thread of the block stores its warp's `cg::reduce` result to out[blockIdx.x]: lanes of
// different warps hold different sums, a race.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void row_sum(int *out, const int *x) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int s = cg::reduce(warp, x[blockIdx.x * blockDim.x + threadIdx.x], cg::plus<int>{});
  out[blockIdx.x] = s;
}
