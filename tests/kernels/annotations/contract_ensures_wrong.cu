// expect: assertion
// --blockDim=64 --gridDim=1
// The early return breaks the postcondition.
__device__ int clamp(int i) {
  __ensures(__return_val_int() < 32);
  if (i > 40) {
    return 40;
  }
  return i < 32 ? i : 31;
}

__global__ void k(int *A) {
  A[threadIdx.x] = clamp(threadIdx.x);
}
