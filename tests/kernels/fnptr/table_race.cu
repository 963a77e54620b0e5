// expect: race
// --blockDim=64 --gridDim=4
// A table of device functions indexed by a kernel parameter: `shifted` reads the neighbour's
// element that the neighbour writes, so the call through the table races when `sel` picks it.
typedef void (*op_t)(int *, unsigned int);

__device__ void own(int *a, unsigned int i) { a[i] = i; }
__device__ void shifted(int *a, unsigned int i) { a[i] = a[i + 1]; }

__global__ void table_race(int *a, int sel) {
  op_t ops[2] = {own, shifted};
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  ops[sel & 1](a, i);
}
