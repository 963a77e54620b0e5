// expect: assertion
// --blockDim=64 --gridDim=4
// A function-pointer kernel parameter without a precondition: every device function of its
// type is race-free, but the host may pass a null pointer, and the call then fails.
typedef void (*op_t)(int *, unsigned int);

__device__ void own(int *a, unsigned int i) { a[i] = i; }
__device__ void twice(int *a, unsigned int i) { a[i] = 2 * a[i]; }
__device__ int other(int *a) { return a[0]; }

__global__ void param_null(int *a, op_t f) {
  (*f)(a, blockIdx.x * blockDim.x + threadIdx.x);
}
