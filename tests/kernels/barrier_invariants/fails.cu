// A barrier invariant that does not hold: thread t wrote t, not t + 1.
__global__ void off_by_one() {
  __shared__ int A[128];
  A[threadIdx.x] = threadIdx.x;
  __barrier_invariant_1(A[threadIdx.x] == threadIdx.x + 1, threadIdx.x);
  __syncthreads();
}
