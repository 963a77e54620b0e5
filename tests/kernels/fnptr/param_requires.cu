// expect: verified
// --blockDim=64 --gridDim=4
// A function-pointer kernel parameter: the host may pass any device function of the matching
// type (or none); the precondition keeps it to the two race-free ones.
typedef void (*op_t)(int *, unsigned int);

__device__ void own(int *a, unsigned int i) { a[i] = i; }
__device__ void twice(int *a, unsigned int i) { a[i] = 2 * a[i]; }
__device__ void shifted(int *a, unsigned int i) { a[i] = a[i + 1]; }

__global__ void param_requires(int *a, op_t f) {
  __requires(f == own | f == twice);
  f(a, blockIdx.x * blockDim.x + threadIdx.x);
}
