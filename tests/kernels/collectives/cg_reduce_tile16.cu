// expect: race on out
// --blockDim=32 --gridDim=64
// A tile of 16 lanes: the two tiles of a warp hold different sums, and every lane stores its
// tile's to out[blockIdx.x], a race between the tiles.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void half_sum(int *out, const int *x) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int s = cg::reduce(tile, x[blockIdx.x * blockDim.x + threadIdx.x], cg::plus<int>{});
  out[blockIdx.x] = s;
}
