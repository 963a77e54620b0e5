// expect: assertion
// --blockDim=32 --gridDim=1 --warp-sync=32
// Paper 000 section 3's example of what a plain equality abstraction gets wrong: the two
// modelled threads see their own writes only, yet threads 0, 1 and 2 all zero A[0..2] in the
// one lock-step statement, so the assertion fails. After a statement writing A the array is
// forgotten, and gpug finds it.
__global__ void write_forgets(int *A) {
  A[0] = 1;
  A[1] = 1;
  A[2] = 1;
  A[threadIdx.x] = 0;
  __assert(A[0] == 1 | A[1] == 1 | A[2] == 1);
}
