// expect: race on a
// --blockDim=32 --gridDim=1
// A pointer chosen by `?:` between two arrays and passed to a device function that reassigns
// its parameter: odd threads write their index to `a[0]` (a race), even threads to their own
// element of `b`.
__device__ void put(int *q, unsigned int i, int *fallback) {
  if (i == 0)
    q = fallback;
  q[i] = threadIdx.x;
}

__global__ void choose_and_call(int *a, int *b, int *c) {
  int *p = (threadIdx.x & 1) ? a : b;
  put(p, (threadIdx.x & 1) ? 0 : threadIdx.x, (threadIdx.x & 1) ? a : c);
}
