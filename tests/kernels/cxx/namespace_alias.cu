// expect: verified
// --blockDim=64 --gridDim=4
// A namespace alias declared inside the kernel (`namespace cg = cooperative_groups;`) and one
// of the kernel's own namespace: the declarations name nothing to verify (clang resolves the
// names), and each thread writes its own element.
#include <cooperative_groups.h>

namespace tiles {
__device__ int stride(int n) { return 2 * n; }
} // namespace tiles

__global__ void scale_pairs(float *v) {
  namespace cg = cooperative_groups;
  namespace t = tiles;
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + block.thread_rank();
  v[t::stride(i)] = 2.0f * v[t::stride(i) + 1];
}
