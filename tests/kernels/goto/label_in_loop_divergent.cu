// expect: divergence
// --blockDim=64 --gridDim=1
// As label_in_loop.cu, but the goto jumps over the second barrier to the end of the body:
// a thread that jumps misses a barrier its neighbours reach.
__global__ void label_in_loop_divergent(int *a, int n) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  for (int i = 0; i < n; i++) {
    s[t] = i + a[t];
    __syncthreads();
    if (a[t] < 0)
      goto next;
    a[t] += s[(t + 1) % 64];
    __syncthreads();
  next:;
  }
}
