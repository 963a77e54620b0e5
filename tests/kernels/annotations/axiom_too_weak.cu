// expect: race
// --blockDim=64 --gridDim=[8,8]
// The axioms (GPUVerify's file-scope `__axiom`) restrict the launch to block (3, 5): no
// thread takes the racy branch.
__axiom(blockIdx.x == 3);
__axiom(blockIdx.y < 8);

__global__ void k(int *A) {
  if (blockIdx.x != 3 || blockIdx.y != 5) {
    A[0] = threadIdx.x;
  }
  A[threadIdx.x + 1] = 1;
}
