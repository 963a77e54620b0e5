// expect: verified
// --solver z3
// A hand-linearised 2D grid: the index wraps only in a launch of more than 2^32 threads in
// all (a grid of 2^30 blocks), though each dimension's count fits; listed apart.
__global__ void fill2d(float *a, const float *b) {
  unsigned i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  a[i] = b[i];
}
