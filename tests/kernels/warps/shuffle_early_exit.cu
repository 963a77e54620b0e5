// expect: verified
// --blockDim=64 --gridDim=1
// Lanes that returned before a full-mask shuffle are allowed (CUDA: the lanes the mask names
// that have not exited must make the call).
__global__ void early_exit(const int *in, int *out, int n) {
  if (threadIdx.x >= n) return;
  int v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 1);
  out[threadIdx.x] = v;
}
