// expect: race on v
// --blockDim=64 --gridDim=4
// As namespace_alias.cu, but the stride is 1: thread i writes the element thread i-1 reads.
#include <cooperative_groups.h>

namespace tiles {
__device__ int stride(int n) { return n; }
} // namespace tiles

__global__ void scale_pairs(float *v) {
  namespace cg = cooperative_groups;
  namespace t = tiles;
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + block.thread_rank();
  v[t::stride(i)] = 2.0f * v[t::stride(i) + 1];
}
