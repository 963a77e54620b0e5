// expect: race
// --blockDim=64 --gridDim=1
// A local function pointer chosen per thread, a device function returning a function pointer,
// and a struct field holding one: odd threads call `shifted`, which reads what even threads
// write.
typedef void (*op_t)(int *, unsigned int);

struct job {
  op_t run;
  unsigned int at;
};

__device__ void own(int *a, unsigned int i) { a[i] = i; }
__device__ void shifted(int *a, unsigned int i) { a[i] = a[i + 1]; }

__device__ op_t pick(unsigned int t) { return (t & 1) ? shifted : own; }

__global__ void local_select(int *a) {
  job j;
  j.run = pick(threadIdx.x);
  j.at = threadIdx.x;
  op_t f = j.run;
  f(a, j.at);
}
