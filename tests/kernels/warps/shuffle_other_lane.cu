// expect: verified
// --blockDim=64 --gridDim=1
// The pair model gives a shuffle the other thread's value when that thread is the source lane.
// With the pair pinned to xor-partners (GPUVerify's two-thread assumption), each receives the
// other's index exactly, and the assertion holds; an arbitrary lane's value would not.
__global__ void partner(int *a) {
  __assume(__other_int((int)threadIdx.x) == (int)(threadIdx.x ^ 1));
  unsigned v = threadIdx.x;
  unsigned w = __shfl_xor_sync(0xffffffff, v, 1);
  __assert(w == (threadIdx.x ^ 1));
}
