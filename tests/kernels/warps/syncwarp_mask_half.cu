// expect: verified
// --blockDim=64 --gridDim=1
// `__syncwarp(0x0000ffff)` orders the lower half of each warp: a lane reads its neighbour's
// element (within the half) after the barrier, which only the lower half calls.
__global__ void half(int *a) {
  a[threadIdx.x] = 1;
  if ((threadIdx.x & 31) < 16) {
    __syncwarp(0x0000ffff);
    a[64 + threadIdx.x] = a[threadIdx.x ^ 1];
  }
}
