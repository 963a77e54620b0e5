// expect: race on a
// --blockDim=64 --gridDim=1
// The barrier names the lower half only: a lane of it reading the upper half's element is not
// ordered with that lane's write.
__global__ void other_half(int *a) {
  a[threadIdx.x] = 1;
  if ((threadIdx.x & 31) < 16) {
    __syncwarp(0x0000ffff);
    a[64 + threadIdx.x] = a[threadIdx.x + 16];
  }
}
