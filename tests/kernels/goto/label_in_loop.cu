// expect: verified
// --blockDim=64 --gridDim=1
// The label is in the loop body: a thread that jumps skips only the rest of this iteration's
// own work and then reaches both barriers with the others, this iteration and the next.
__global__ void label_in_loop(int *a, int n) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  for (int i = 0; i < n; i++) {
    if (a[t] < 0)
      goto next;
    a[t] = a[t] - 1;
  next:
    s[t] = i + a[t];
    __syncthreads();
    a[t] += s[(t + 1) % 64];
    __syncthreads();
  }
}
