// expect: verified
// --blockDim=32 --gridDim=1
// As ptr_to_ptr_race.cu, with pointers chosen by a parameter between two arrays: every write
// goes to the calling thread's own element of whichever array the pointer points to.
__device__ void step(int **dst, int **src, unsigned int i) {
  (*dst)[i] = dst[0][i] + 1;
  *dst = *src;
}

__global__ void ptr_to_ptr_ok(int *a, int *b, int c) {
  int *p = c ? a : b;
  int *q = c ? b : a;
  step(&p, &q, threadIdx.x);
  step(&p, &q, threadIdx.x);
}
