// `t` is this thread's own variable: instantiating the invariant at thread 0 would keep it
// (A[t] == t is not A[0] == 0), so gpug refuses the instantiation with a finding.
__global__ void local_var() {
  __shared__ int A[128];
  int t = threadIdx.x;
  A[t] = t;
  __barrier_invariant_1(A[t] == t, 0);
  __syncthreads();
  __assert(A[0] == 0);
}
