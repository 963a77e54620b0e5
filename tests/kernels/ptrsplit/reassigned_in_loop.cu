// expect: race on b
// --blockDim=32 --gridDim=1
// `p` starts at `a` and moves to `b` at the end of the first iteration: the access at the top
// of the loop body reaches `b` in the second iteration (so the kernel is lowered again once
// `p` is known to point to both), where every thread writes `b[0]`, each its own value (not a
// benign race).
__global__ void reassigned_in_loop(int *a, int *b) {
  int *p = a + threadIdx.x;
  for (int k = 0; k < 2; k++) {
    p[0] = k + threadIdx.x;
    p = b;
  }
}
