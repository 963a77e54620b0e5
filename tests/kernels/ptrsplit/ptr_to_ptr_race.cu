// expect: race on b
// --blockDim=32 --gridDim=1
// Pointers to pointer variables: `step` writes through `*dst`, then points `*dst` where
// `*src` points. The first call writes `a[tid]` and moves `p` to `b`; the second writes
// `b[0]` from every thread, each its own index (so the race is not benign).
__device__ void step(int **dst, int **src, unsigned int i) {
  (*dst)[i] = threadIdx.x;
  *dst = *src;
}

__global__ void ptr_to_ptr_race(int *a, int *b) {
  int *p = a;
  int *q = b;
  step(&p, &q, threadIdx.x);
  int **pp = &p;
  step(pp, &q, 0);
}
