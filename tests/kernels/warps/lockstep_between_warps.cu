// expect: race on a
// --blockDim=32 --gridDim=1 --warp-sync=16
// Warps of 16: lane t reads the element of thread t ^ 16, which is in the other warp, while
// that thread writes it. Lock-step orders nothing across warps.
__global__ void swap_halves(int *a) {
  unsigned t = threadIdx.x;
  int v = a[t ^ 16];
  a[t] = v;
}
