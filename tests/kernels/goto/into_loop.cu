// expect: unsupported at 8:5
// --blockDim=64 --gridDim=1
// A goto into a loop body: out of reach, named at the goto.
__global__ void into_loop(int *a, int n) {
  unsigned t = threadIdx.x;
  int i = 0;
  if (n > 4)
    goto mid;
  while (i < n) {
    a[t] = i;
  mid:
    a[t] += 1;
    i++;
  }
}
