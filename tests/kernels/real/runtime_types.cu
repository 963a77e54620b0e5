// expect: verified
// --blockDim=256 --gridDim=64
// The runtime's by-value records and handles, declared in NVIDIA's precompiled headers: a
// `cudaExtent` parameter and a device function returning a `cudaTextureObject_t`.
__device__ cudaTextureObject_t pick(const cudaTextureObject_t *objs, unsigned i) { return objs[i]; }
__global__ void sample(float *out, cudaExtent extent, const cudaTextureObject_t *objs) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  cudaTextureObject_t t = pick(objs, 0);
  if (x < extent.width) out[x] = tex1Dfetch<float>(t, x);
}
