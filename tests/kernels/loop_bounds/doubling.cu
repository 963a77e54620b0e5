// expect: verified
// --blockDim=[*,1,1] --gridDim=4
// cuda-samples' reduce1 (interleaved addressing): `s` doubles while below blockDim.x, so no
// iteration the loop reaches has `s` wrapped to 0; the abstracted loop's iteration keeps that
// trip bound (`s << (it - 1) < blockDim.x`), and `index = 2 * s * tid` stays distinct per thread.
__global__ void reduce1(int *g_idata, int *g_odata, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
