// expect: verified
// --blockDim=64 --gridDim=1
// A tile of 16 threads' `sync()` orders the threads of each tile.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void tile16(int *a) {
  cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
  a[threadIdx.x] = 1;
  t.sync();
  a[64 + threadIdx.x] = a[threadIdx.x ^ 15];
}
