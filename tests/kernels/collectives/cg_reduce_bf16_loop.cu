// expect: verified
// --blockDim=64 --gridDim=32 --kernel-args B=8,T=1024,OC=3072
// llm.c's matmul_backward_bias_kernel3: each thread sums bf16 values converted to float (the
// header's `operator float`, a call without a body in gpug's view) in a loop, the warp reduces
// the sums with cg::reduce, and every lane stores the warp's result to one shared slot. The
// lanes store the same value, so the write-write race is benign: the conversion is the
// toolkit's, a function of its argument.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
typedef __nv_bfloat16 floatX;
namespace cg = cooperative_groups;

__global__ void k(floatX *dbias, const floatX *dout, int B, int T, int OC) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float shared_sum[32];
  int BT = B * T;
  int warp_id = threadIdx.x / 32;
  int idx = blockIdx.x;
  float thread_sum = 0.0f;
  for (int i = threadIdx.x; i < BT; i += blockDim.x) {
    thread_sum += (float)dout[i * OC + idx];
  }
  float warp_sum = cg::reduce(warp, thread_sum, cg::plus<float>{});
  shared_sum[warp_id] = warp_sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    dbias[idx] = (float)shared_sum[0];
  }
}
