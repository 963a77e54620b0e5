// expect: verified
// --blockDim=256 --gridDim=64
// llm.c's AdamW: an optional master copy, passed as `p ? p + offset : NULL` and written only
// when it is not null (a null pointer points into an array of its own, accessed nowhere).
__device__ void update(float *params, float *master, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  params[i] = params[i] * 0.5f;
  if (master != NULL) { master[i] = params[i]; }
}
__global__ void adamw(float *params, float *master, unsigned n) {
  update(params + blockIdx.y * n, master ? master + blockIdx.y * n : NULL, n);
}
