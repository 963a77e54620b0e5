// expect: verified
// --blockDim=64 --gridDim=4
// A global assertion whose condition already relates the two threads (`__all`) is asked of the
// pair as it is.
__global__ void k(int *A) {
  __global_assert(__all(threadIdx.x < blockDim.x));
  A[blockIdx.x * blockDim.x + threadIdx.x] = 0;
}
