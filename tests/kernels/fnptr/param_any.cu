// expect: race
// --blockDim=64 --gridDim=4
// A function-pointer kernel parameter without a precondition: the host may pass `shifted`,
// which races.
typedef void (*op_t)(int *, unsigned int);

__device__ void own(int *a, unsigned int i) { a[i] = i; }
__device__ void shifted(int *a, unsigned int i) { a[i] = a[i + 1]; }

__global__ void param_any(int *a, op_t f) {
  (*f)(a, blockIdx.x * blockDim.x + threadIdx.x);
}
