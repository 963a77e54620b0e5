// expect: race on b
// --blockDim=8 --gridDim=1
// `x` is passed both as a pointer and by its address; `f` moves `x` to `b` through `pp`, but
// its own copy `p` still points to `a` (each thread writes its own element there), while
// `(*pp)[0]` is `b[0]` for every thread, which each writes its own index (not a benign race).
__device__ void f(int *p, int **pp, int *b) {
  *pp = b;
  p[threadIdx.x] = 1;
  (*pp)[0] = threadIdx.x;
}

__global__ void retarget_aliased_arg(int *a, int *b) {
  int *x = a;
  f(x, &x, b);
}
