// expect: verified
// --blockDim=64 --gridDim=16
// A local array of pointers set by constant subscripts (NVIDIA's marchingCubes: `float3
// *v[3]`), each pointing at the thread's own element of a shared array.
__global__ void triangles(float *out) {
  __shared__ float verts[3 * 64];
  float *v[3];
  for (int k = 0; k < 3; k++) verts[k * 64 + threadIdx.x] = k;
  v[0] = &verts[threadIdx.x];
  v[1] = &verts[64 + threadIdx.x];
  v[2] = &verts[128 + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = *v[0] + *v[1] + *v[2];
}
