// expect: verified
// --solver z3
// An `int` index scaled by a row length: two threads reach one element only when
// `row * n` overflows int (a tensor of more than 2^31 elements), undefined behaviour,
// listed apart with that operation; --strict reports it.
__global__ void scale_rows(float *a, int n) {
  int row = blockIdx.x;
  int col = threadIdx.x;
  if (col < n) {
    a[row * n + col] = 2.0f * a[row * n + col];
  }
}
