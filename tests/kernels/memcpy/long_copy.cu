// expect: verified
// --blockDim=32 --gridDim=1
// 256 bytes per thread: copied by a loop over the bytes, each thread in its own chunk.
__global__ void k(const float *in, float *out) {
  memcpy(&out[64 * threadIdx.x], &in[64 * threadIdx.x], 64 * sizeof(float));
}
