// expect: unsupported at 7:35
// --blockDim=64 --gridDim=4
// The kernel loads pointers from `rows` and a function without a body may rewrite them: the
// pointers would no longer be those of the launch, which is not modelled.
__device__ void rebind(float **r);

__global__ void per_block(float **rows) {
  if (threadIdx.x == 0)
    rebind(rows);
  rows[blockIdx.x][threadIdx.x] = 1.0f;
}
