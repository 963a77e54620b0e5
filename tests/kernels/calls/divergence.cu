// expect: divergence (possible)
// --blockDim=64 --gridDim=1
// The barrier's guard depends on what `step` makes of the thread's own state.
struct state { unsigned s[4]; };
__device__ unsigned step(state *st);

__global__ void k(int *a) {
  state st;
  st.s[0] = 1;
  if (step(&st) & 1) {
    __syncthreads();
  }
}
