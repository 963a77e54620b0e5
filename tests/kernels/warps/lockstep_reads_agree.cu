// expect: verified
// --blockDim=32 --gridDim=1 --warp-sync=32
// Paper 000 section 3's refined equality abstraction: two reads of one location with no
// statement writing the array between them see one value, although the other lanes of the
// warp write the array (B here) in lock-step in between.
__global__ void reads_agree(int *A, int *B) {
  A[threadIdx.x] = 1;
  int x = A[threadIdx.x];
  B[threadIdx.x] = 1;
  int y = A[threadIdx.x];
  __assert(x == y);
}
