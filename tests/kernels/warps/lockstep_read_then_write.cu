// expect: verified
// --blockDim=32 --gridDim=1 --warp-sync=32
// In lock-step every lane reads its neighbour's element before any lane writes its own (one
// warp of 32 is the whole launch).
__global__ void rotate(int *a) {
  unsigned t = threadIdx.x;
  int v = a[(t + 1) % 32];
  a[t] = v;
}
