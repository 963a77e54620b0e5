// expect: race on s
// --blockDim=64 --gridDim=8
// A tile's shuffle of a struct read from shared memory: each thread shuffles its neighbour's
// element, which the neighbour writes in the same barrier interval (no sync between).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void swizzle(const uint4 *in, uint4 *out) {
  __shared__ uint4 s[64];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  s[t] = in[i];
  uint4 v = tile.shfl_xor(s[(t + 1) % 64], 1);
  out[i] = v;
}
