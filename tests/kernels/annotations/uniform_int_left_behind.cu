// expect: invariant
// --blockDim=64 --gridDim=1
// Two threads at the same iteration agree on `k`, but the loop runs threadIdx.x times: once
// one thread has left, the other goes on counting, and `__uniform_int(k)` (which GPUVerify
// evaluates with both threads in lock step, the finished one disabled) no longer holds.
__global__ void k(int *A) {
  int k = 0;
  int x = 0;
  for (; __invariant(__uniform_int(k)), k < threadIdx.x; k++) {
    x += k;
  }
  A[threadIdx.x] = x;
}
