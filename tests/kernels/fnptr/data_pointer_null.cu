// expect: verified
// --blockDim=64 --gridDim=2
// A function pointer kept in a `void *` and cast back: the same function. Null only when
// `mode` is 0, which the precondition rules out.
typedef void (*op_t)(int *, unsigned int);

__device__ void own(int *a, unsigned int i) { a[i] = i; }

__global__ void through_void(int *a, int mode) {
  __requires(mode != 0);
  void *x = (void *)own;
  if (mode == 0)
    x = NULL;
  op_t g = (op_t)x;
  g(a, blockIdx.x * blockDim.x + threadIdx.x);
}
