// expect: assertion
// --blockDim=32 --gridDim=1
// Two readings of `clock()` are two values, not one (an uninterpreted pure function would make
// them equal and prove this assertion).
__global__ void timed(clock_t *t, int *a) {
  clock_t s = clock();
  a[threadIdx.x] = 1;
  clock_t e = clock();
  __assert(e == s);
  t[threadIdx.x] = e - s;
}
