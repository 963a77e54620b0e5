// A race on A (every thread writes A[0]) and an assertion that fails for threads 32..63:
// `--stage races` finds only the race, `--stage functional` only the assertion.
__global__ void k(int *A, int *B) {
  A[0] = threadIdx.x;
  __assert(threadIdx.x < 32);
  B[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
