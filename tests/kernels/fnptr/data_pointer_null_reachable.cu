// expect: assertion
// --blockDim=64 --gridDim=2
// As data_pointer_null.cu without the precondition: with `mode` 0 the call goes through NULL.
typedef void (*op_t)(int *, unsigned int);

__device__ void own(int *a, unsigned int i) { a[i] = i; }

__global__ void through_void(int *a, int mode) {
  void *x = (void *)own;
  if (mode == 0)
    x = NULL;
  op_t g = (op_t)x;
  g(a, blockIdx.x * blockDim.x + threadIdx.x);
}
