// expect: verified
// --blockDim=64 --gridDim=4
// The access logs between barriers: what this thread read and wrote since the last barrier.
// (`__read(A)` alone is not asserted: GPUVerify logs each access or not, nondeterministically,
// so it says only that some read was logged.)
__global__ void k(int *A, int *B) {
  __assert(__no_read(A) & __no_write(A) & __no_write(B));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = A[i];
  __assert(__no_write(A));
  __assert(__implies(__read(A), __read_offset_bytes(A) == i * sizeof(int)));
  B[i + 1] = x;
  __assert(__write_implies(B, __write_offset_bytes(B) == (i + 1) * sizeof(int)));
  __syncthreads();
  __assert(__no_read(A) & __no_write(B));
}
