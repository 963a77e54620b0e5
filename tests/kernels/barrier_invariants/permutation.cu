// A data-dependent write: each thread writes B at an index another thread computed. Race-free
// because A is a permutation (A[t] == (t + 1) % N); the barrier invariant carries that across
// the barrier, instantiated at this thread's and at its right neighbour's index.
#define N 64
__global__ void permute(int *out) {
  __shared__ int A[N];
  __shared__ int B[N];
  unsigned t = threadIdx.x;
  A[t] = (t + 1) % N;
#ifndef NO_INVARIANT
  __barrier_invariant(A[threadIdx.x] == (threadIdx.x + 1) % N, threadIdx.x, (threadIdx.x + 1) % N);
#endif
  __syncthreads();
  B[A[t]] = t;
  __syncthreads();
  out[blockIdx.x * N + t] = B[t];
}
