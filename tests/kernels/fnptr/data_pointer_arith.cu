// expect: assertion
// --blockDim=64 --gridDim=2
// Arithmetic on a function's address held in a data pointer: the result is no function, so
// the call through it fails (when `k` may be nonzero).
typedef void (*op_t)(int *, unsigned int);

__device__ void own(int *a, unsigned int i) { a[i] = i; }
__device__ void other(int *a, unsigned int i) { a[i] = 2 * i; }

__global__ void shifted(int *a, int k) {
  char *x = (char *)own;
  x += k;
  op_t g = (op_t)x;
  g(a, blockIdx.x * blockDim.x + threadIdx.x);
}
