// expect: race (possible)
// --blockDim=64 --gridDim=1
// `fill` has no body and takes a pointer to non-const data: it may write anywhere in `a`.
__device__ void fill(int *p, int n);

__global__ void k(int *a) {
  fill(a + threadIdx.x, 1);
}
