// expect: race on sdata
// --blockDim=[*,1,1] --gridDim=4
// doubling.cu without the barrier in the loop: thread tid reads sdata[index + s] while thread
// tid + 1 of the previous step may still write it; the trip bound must not hide that race.
__global__ void reduce1(int *g_idata, int *g_odata, unsigned int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
