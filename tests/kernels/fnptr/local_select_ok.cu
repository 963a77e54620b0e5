// expect: verified
// --blockDim=64 --gridDim=1
// As local_select.cu, with a result: every thread picks `own` or `twice`, both race-free,
// and stores the value returned through the pointer in a slot of its own.
typedef int (*op_t)(int *, unsigned int);

struct job {
  op_t run;
  unsigned int at;
};

__device__ int own(int *a, unsigned int i) { a[i] = i; return 1; }
__device__ int twice(int *a, unsigned int i) { a[i] = 2 * a[i]; return 2; }
__device__ int shifted(int *a, unsigned int i) { a[i] = a[i + 1]; return 3; }

__device__ op_t pick(unsigned int t) { return (t & 1) ? twice : own; }

__global__ void local_select_ok(int *a, int *b) {
  job j;
  j.run = pick(threadIdx.x);
  j.at = threadIdx.x;
  op_t f = j.run;
  int r = f(a, j.at);
  b[threadIdx.x * 4 + r] = r;
}
