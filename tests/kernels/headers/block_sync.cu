// Cooperative groups with NVIDIA's headers: a thread_block barrier separates the read of the
// neighbour's element from the write of one's own.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void shift(int *a) {
  cg::thread_block block = cg::this_thread_block();
  unsigned i = block.thread_rank();
  int next = 0;
  if (i + 1 < block.size())
    next = a[i + 1];
  block.sync();
  a[i] = next;
}
