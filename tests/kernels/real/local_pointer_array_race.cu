// expect: race on verts
// --blockDim=64 --gridDim=16
// The same, but the second pointer is the next thread's element, read without a barrier
// after that thread writes it.
__global__ void triangles(float *out) {
  __shared__ float verts[3 * 64 + 1];
  float *v[3];
  for (int k = 0; k < 3; k++) verts[k * 64 + threadIdx.x] = k;
  v[0] = &verts[threadIdx.x];
  v[1] = &verts[64 + threadIdx.x + 1];
  v[2] = &verts[128 + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = *v[0] + *v[1] + *v[2];
}
