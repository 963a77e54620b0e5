// expect: assertion
// --blockDim=32 --gridDim=1
// A null source, spelt `nullptr`, on one thread's path only.
__global__ void k(int *out) {
  if (threadIdx.x == 7)
    __builtin_memcpy(&out[threadIdx.x], nullptr, sizeof(int));
}
