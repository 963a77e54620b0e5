// expect: verified
// --blockDim=32 --gridDim=64
// A tile of 16 lanes, each tile storing its sum to its own place: lanes of one tile write the
// same value, benign.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void half_sum(int *out, const int *x) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int s = cg::reduce(tile, x[blockIdx.x * blockDim.x + threadIdx.x], cg::plus<int>{});
  out[blockIdx.x * 2 + threadIdx.x / 16] = s;
}
