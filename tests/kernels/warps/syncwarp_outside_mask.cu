// expect: divergence
// --blockDim=32 --gridDim=1
// Every lane calls a `__syncwarp` whose mask names the lower half only: lanes 16..31 call it
// with their own bit clear, which CUDA does not allow.
__global__ void outside(int *a) {
  a[threadIdx.x] = 1;
  __syncwarp(0x0000ffff);
  a[32 + threadIdx.x] = a[threadIdx.x ^ 1];
}
