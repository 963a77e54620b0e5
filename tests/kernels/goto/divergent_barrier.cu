// expect: divergence
// --blockDim=64 --gridDim=1
// Threads of the lower half leave the loop by a goto over the barrier: barrier divergence.
__global__ void divergent_barrier(int *a, int n) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  for (int i = 0; i < n; i++) {
    if (t < 32 && i == 2)
      goto done;
    a[t] += i;
  }
  s[t] = a[t];
  __syncthreads();
  a[t] = s[63 - t];
done:
  return;
}
