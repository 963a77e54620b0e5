// expect: race
// --blockDim=128 --gridDim=4 --warp-sync=32
#include <cuda.h>

// warp_sync_tail.cu's tail started one step too early, with 64 partial sums: two warps add
// them up without a barrier, and lock-step holds only inside a warp. Thread 0 (warp 0) reads
// s[32] while thread 32 (warp 1) writes it: a race even under --warp-sync=32.
__global__ void reduce_tail64(int *out, const int *in) {
  __shared__ volatile int s[128];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  if (t < 64) {
    s[t] += s[t + 64];
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
