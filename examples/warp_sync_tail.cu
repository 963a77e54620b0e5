// expect: race
// --blockDim=64 --gridDim=8
// expect: verified
// --blockDim=64 --gridDim=8 --warp-sync=32
#include <cuda.h>

// The warp-synchronous tail of a tree reduction, as written before CUDA 9: once 32 partial
// sums are left, the last warp adds them up without a barrier, relying on its 32 threads
// executing each statement together (`volatile` keeps every read in memory). On GPUs since
// Volta a warp has no such implicit synchrony: thread 0 reads s[16] while thread 16 writes it,
// a race, which compute-sanitizer's racecheck reports on an H100 and gpug reports by default.
// Under --warp-sync=32 (the lock-step model of Bardsley and Donaldson (NFM 2014) section 3, for code of that time)
// each step's reads come before its writes in the whole warp, and the kernel is verified.
__global__ void reduce_tail(int *out, const int *in) {
  __shared__ volatile int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  if (t < 32) {
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
