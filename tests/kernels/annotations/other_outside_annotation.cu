// expect: unsupported
// --blockDim=64 --gridDim=1
// `__other_int` is an annotation: in code it is an error naming it.
__global__ void k(int *A) {
  A[threadIdx.x] = __other_int(threadIdx.x);
}
