// expect: assertion
// --blockDim=32 --gridDim=1
// The mask names the lower half only: lane 0 reading lane 16 (outside it) gets an undefined
// value, even when the pair model follows lane 16.
__global__ void outside_mask(int *out) {
  unsigned v = threadIdx.x;
  unsigned w = __shfl_xor_sync(0x0000ffff, v, 16);
  __assume(__other_int((int)threadIdx.x) == (int)(threadIdx.x ^ 16));
  __assert(w == (threadIdx.x ^ 16));
}
