// expect: unsupported at 10:5
// --blockDim=64 --gridDim=1
// A backward goto (a retry loop): out of reach, named at the goto.
__global__ void backward(int *a) {
  unsigned t = threadIdx.x;
  int tries = 0;
again:
  tries++;
  if (atomicCAS(&a[0], 0, (int)t) != 0 && tries < 4)
    goto again;
  a[t + 1] = tries;
}
