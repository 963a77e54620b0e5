// A ghost array (Chong et al. (OOPSLA 2013) section 5): `__array_snapshot` copies A into A_ghost before the
// loop, and the loop invariant relates each thread's element to its value then. The barrier
// invariant after the loop carries that relation across the barrier.
//   -DNO_SNAPSHOT: A_ghost is never written, so the invariant's base case fails.
//   -DWRONG: an invariant off by one, whose base case fails.
//   -DSNAPSHOT_AFTER: the snapshot taken inside the loop (A_ghost then follows A), so the
//   invariant's step fails.
#define SZ 128
#ifdef WRONG
#define OFF 1
#else
#define OFF 0
#endif
__global__ void ghost(int *out) {
  __shared__ int A[SZ];
  __shared__ int A_ghost[SZ];
  unsigned t = threadIdx.x;
  A[t] = t;
#ifndef NO_SNAPSHOT
  __array_snapshot(A_ghost, A);
#endif
  for (int i = 0; __invariant(A[threadIdx.x] == A_ghost[threadIdx.x] + i + OFF), __invariant(i <= 1000),
       i < 1000; i++) {
    A[t]++;
#ifdef SNAPSHOT_AFTER
    __array_snapshot(A_ghost, A);
#endif
  }
  __read_permission(A_ghost[threadIdx.x]);
  __barrier_invariant(A[threadIdx.x] == A_ghost[threadIdx.x] + 1000, threadIdx.x);
  __syncthreads();
  __assert(A[t] == A_ghost[t] + 1000);
  out[blockIdx.x * SZ + t] = A[t];
}
