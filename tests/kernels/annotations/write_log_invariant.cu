// expect: verified
// --blockDim=128 --gridDim=8
// GPUVerify's write-set invariants (`__write_implies`, `__write_offset_bytes`): every write to
// `A` since the last barrier is at an index congruent to the thread's id modulo the block
// size, inside the block's stripe. gpug checks them (base case and step); the race check
// itself compares the two threads' accesses directly.
#define W 1024
__global__ void stripes(int *A) {
  for (int i = threadIdx.x;
       __invariant(__implies(__write(A), __write_offset_bytes(A) / sizeof(int) % blockDim.x == threadIdx.x)),
       __invariant(__write_implies(A, __write_offset_bytes(A) / sizeof(int) >= blockIdx.x * W)),
       __invariant(__write_implies(A, __write_offset_bytes(A) / sizeof(int) < (blockIdx.x + 1) * W)),
       __invariant(__no_read(A)),
       i < W; i += blockDim.x) {
    A[blockIdx.x * W + i] = i;
  }
}
