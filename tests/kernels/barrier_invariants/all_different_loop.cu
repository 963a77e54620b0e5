// A relational loop invariant that reads shared memory: the elements of the threads of a
// block stay pairwise different while each thread increments its own, one barrier an
// iteration. The barrier invariant after the loop reads the elements the last iteration
// wrote, which its access check must know (the loop's last accesses after its barrier).
//   -DSAME: two threads start equal (t / 2), so the invariants fail.
#define SZ 128
__global__ void all_different(int *out) {
  __shared__ int A[SZ];
  unsigned t = threadIdx.x;
#ifdef SAME
  A[t] = t / 2;
#else
  A[t] = t;
#endif
  for (int i = 0; __invariant(__implies(__same_block(), A[threadIdx.x] != A[__other_int(threadIdx.x)])),
       i < 1000; i++) {
    __barrier_invariant_binary(A[threadIdx.x] != A[__other_int(threadIdx.x)], threadIdx.x,
                               __other_int(threadIdx.x));
    __syncthreads();
    A[t]++;
  }
  __barrier_invariant_binary(A[threadIdx.x] != A[__other_int(threadIdx.x)], threadIdx.x,
                             __other_int(threadIdx.x));
  __syncthreads();
  __assert(__implies(__same_block(), A[threadIdx.x] != A[__other_int(threadIdx.x)]));
  out[blockIdx.x * SZ + t] = A[t];
}
