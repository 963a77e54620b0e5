// expect: verified
// --blockDim=64 --gridDim=1
// `sum` only reads through its const pointer: the array is not written; its result is
// arbitrary at each call, and feeds only values. The local state passed to `step` may be
// written, but it is the thread's own.
__device__ int sum(const int *p, int n);
struct state { unsigned s[4]; };
__device__ unsigned step(state *st);

__global__ void k(const int *in, int *out) {
  state st;
  st.s[0] = threadIdx.x;
  unsigned r = step(&st);
  out[threadIdx.x] = sum(in, 4) + r + st.s[1];
}
