// expect: unsupported
// --blockDim=64 --gridDim=1
// A call through a pointer that may reach a function declared without a body.
typedef int (*op_t)(int);

__device__ int declared_only(int x);
__device__ int inc(int x) { return x + 1; }

__global__ void bodiless(int *a, int sel) {
  op_t f = sel ? inc : declared_only;
  a[threadIdx.x] = f(threadIdx.x);
}
