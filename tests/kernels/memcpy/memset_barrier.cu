// expect: verified
// --blockDim=64 --gridDim=1
// The same with a barrier between the fill and the read, and the fill's result used as a
// pointer.
__global__ void k(int *out) {
  __shared__ int s[64];
  char *p = (char *)__builtin_memset(&s[threadIdx.x], 0xff, sizeof(int));
  p[0] = 1;
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
