// expect: race on out
// --blockDim=64 --gridDim=2
// `p` points to the shared `tile` or to the global `out`, as the uniform `mode` says: through
// `tile` each thread writes its own element, through `out` every thread writes element 0.
// Only the accesses to `out` race.
__global__ void race_in_one_branch(int *out, int mode) {
  __shared__ int tile[64];
  int *p = tile;
  unsigned int i = threadIdx.x;
  if (mode) {
    p = out;
    i = 0;
  }
  p[i] = threadIdx.x;
}
