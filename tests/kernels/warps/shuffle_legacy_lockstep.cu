// expect: verified
// --blockDim=64 --gridDim=1 --warp-sync=32
// The legacy shuffle without a mask (code written before CUDA 9) under the lock-step model.
__global__ void legacy(const int *in, int *out) {
  int v = in[threadIdx.x];
  v += __shfl_down(v, 1);
  out[threadIdx.x] = v;
}
