// expect: verified
// --blockDim=64 --gridDim=1
// As divergent_barrier.cu, but the goto's condition is the same in every thread (a loop of
// four iterations, unrolled): all threads skip the barrier or none does, and the barrier
// orders the shared accesses.
__global__ void uniform_skip(int *a, int stop) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  for (int i = 0; i < 4; i++) {
    if (i == stop)
      goto done;
    a[t] += i;
  }
  s[t] = a[t];
  __syncthreads();
  a[t] = s[63 - t];
done:
  return;
}
