// expect: race on out
// --blockDim=128 --gridDim=4
// `cg::reduce` of a struct with a custom operator, as cg_reduce_struct.cu: the result is any
// value of the struct; every lane writes the row: a race between the lanes of a warp.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
struct SumMax {
  float maxval;
  float sum;
};
__device__ SumMax combine(SumMax a, SumMax b) {
  SumMax r;
  r.maxval = fmaxf(a.maxval, b.maxval);
  r.sum = a.sum + b.sum;
  return r;
}
__global__ void row_stats(float *out, const float *x, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  SumMax p;
  p.maxval = -1.0f;
  p.sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) {
    SumMax q;
    q.maxval = x[row * C + i];
    q.sum = 1.0f;
    p = combine(p, q);
  }
  SumMax t = cg::reduce(warp, p, combine);
  out[row] = t.sum / t.maxval;
}
