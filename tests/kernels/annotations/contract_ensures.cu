// expect: verified
// --blockDim=64 --gridDim=4
// Postconditions of device functions, with `__return_val_int()`: checked where every return of
// the inlined body has joined, then assumed by the caller. The second one is relational:
// distinct threads get distinct slots.
__device__ int slot(int i) {
  __requires(__implies(__enabled(), __distinct_int(i)));
  __ensures(__return_val_int() == 2 * i + 1 | __return_val_int() == 2 * i);
  __ensures(__implies(__enabled(), __distinct_int(__return_val_int())));
  if (i % 2 == 0) {
    return 2 * i;
  }
  return 2 * i + 1;
}

__global__ void k(int *A) {
  int s = slot(blockIdx.x * blockDim.x + threadIdx.x);
  A[s] = s;
}
