// expect: verified
// --blockDim=64 --gridDim=4
// A table of device functions indexed by a kernel parameter: every target writes only the
// calling thread's element. `shifted` (which races) has the same type but is not in the table.
typedef void (*op_t)(int *, unsigned int);

__device__ void own(int *a, unsigned int i) { a[i] = i; }
__device__ void twice(int *a, unsigned int i) { a[i] = 2 * a[i]; }
__device__ void shifted(int *a, unsigned int i) { a[i] = a[i + 1]; }

__global__ void table_ok(int *a, int sel) {
  op_t ops[2] = {own, &twice};
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  (*ops[sel & 1])(a, i);
}
