// expect: verified
// --blockDim=64 --gridDim=8
// A tile's shuffle of a struct (a uint4 member of a struct, and a struct of the program), as
// shfl_scan's `tile.shfl_xor(result.y, 1)`: each thread stores what it received to its own
// place.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct packed { uint4 x, y; };
struct pair { int a; float b; };
__global__ void swizzle(const uint4 *in, uint4 *out, pair *p) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  packed r;
  r.x = in[i];
  r.y = in[i];
  r.y = tile.shfl_xor(r.y, 1);
  out[i] = r.y;
  pair q = {(int)threadIdx.x, 1.0f};
  q = tile.shfl_down(q, 2);
  p[i] = q;
}
