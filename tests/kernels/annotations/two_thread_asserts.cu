// expect: verified
// --blockDim=64 --gridDim=2
// Assertions over the pair that hold: two distinct threads of one block have distinct ids,
// `__same_block` compares blockIdx, `__exclusive` and `__distinct_int` say what they mean,
// and `__add_noovfl` knows the range of threadIdx.
__global__ void k(int *A, int n) {
  __requires(n < 1000);
  __assert(__implies(__same_block(), __distinct_int(threadIdx.x)));
  __assert(__implies(threadIdx.x == 4 & __same_group(), __other_int(threadIdx.x) != 4));
  __assert(__implies(__same_block(), blockIdx.x == __other_int(blockIdx.x)));
  __assert(__exclusive(threadIdx.x == 7 & __same_block()));
  __assert(__uniform_int(n));
  __assert(__add_noovfl(n, (int)threadIdx.x));
  A[blockIdx.x * blockDim.x + threadIdx.x] = n;
}
