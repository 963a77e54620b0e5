// expect: race on rows[*]
// --blockDim=64 --gridDim=4
// As pointer_to_pointer_param.cu, but blocks 2b and 2b + 1 write the same array `rows[b]`.
__global__ void per_block(float **rows) {
  int b = blockIdx.x / 2;
  int t = threadIdx.x;
  float *row = rows[b];
  row[t] = rows[b + 4][t] + 1.0f;
}
