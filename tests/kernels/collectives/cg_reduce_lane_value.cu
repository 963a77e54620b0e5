// expect: race on partial
// --blockDim=256 --gridDim=64
// As cg_reduce_same_value.cu, but each lane adds its own lane id to the warp's sum before it
// stores it: the lanes of a warp write different values to one place, a race.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void column_sum(int *partial, const int *x) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int v = x[blockIdx.x * blockDim.x + threadIdx.x];
  int s = cg::reduce(warp, v, cg::plus<int>{});
  partial[blockIdx.x * 8 + threadIdx.x / 32] = s + (int)warp.thread_rank();
}
