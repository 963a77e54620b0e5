// expect: invariant
// --blockDim=64 --gridDim=1
// `j` grows by the thread's id: equal on entry, not kept equal by an iteration.
__global__ void k(int *A, int n) {
  int j = 0;
  for (int it = 0; __invariant(__uniform_int(j)), it < n; it++) {
    j += threadIdx.x;
  }
  A[threadIdx.x] = j;
}
