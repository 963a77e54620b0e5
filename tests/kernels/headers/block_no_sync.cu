// As block_sync.cu without the barrier: thread i writes a[i] while thread i-1 reads it.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void shift(int *a) {
  cg::thread_block block = cg::this_thread_block();
  unsigned i = block.thread_rank();
  int next = 0;
  if (i + 1 < block.size())
    next = a[i + 1];
  a[i] = next;
}
