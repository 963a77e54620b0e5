// expect: verified
// --blockDim=64 --gridDim=4
// A `float **` kernel parameter: each pointer it holds points to an array of its own, so
// block b writing `rows[b][t]` and reading `rows[b + 4][t]` never meets another block. A
// `const int *const *` one likewise, its pointers compared with `nullptr`.
__global__ void per_block(float **rows, const int *const *offsets) {
  int b = blockIdx.x;
  int t = threadIdx.x;
  float *row = rows[b];
  const int *off = offsets[b];
  int k = (off != nullptr) ? 0 : 0;
  row[t + k] = rows[b + 4][t] + 1.0f;
  *(rows[b + 8] + t) = 2.0f;
}
