// expect: invariant
// --blockDim=128 --gridDim=8
// A wrong write-set invariant: the writes of earlier iterations are not all at the thread's
// current index. gpug reports that the invariant is not preserved.
#define W 1024
__global__ void stripes(int *A) {
  for (int i = threadIdx.x;
       __invariant(__implies(__write(A), __write_offset_bytes(A) / sizeof(int) == blockIdx.x * W + i)),
       i < W; i += blockDim.x) {
    A[blockIdx.x * W + i] = i;
  }
}
