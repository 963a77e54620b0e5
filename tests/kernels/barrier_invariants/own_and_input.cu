// Each thread reads its left neighbour's value of `in` (the kernel's input, which no thread
// writes) into a private `v`, and the barrier invariants say so: one reads the private `v`
// with `threadIdx.x` as its only instance (the thread's own), and the last reads `in` at the
// right neighbour's index, which neither thread of the pair need have accessed (known all the
// same: nothing can have changed it; the invariant itself is a tautology). After the
// barrier each thread writes v + its own value: the sum of two neighbours, as asserted.
// -DWRONG states the sum of the wrong neighbours (a finding, whether or not the check is
// split by thread); -DWRITTEN lets thread 0 write `in` too (then reading it needs permission).
#ifndef WRONG
#define LEFT(t) ((t) - 1)
#else
#define LEFT(t) ((t) + 1)
#endif
__global__ void neighbours(unsigned *in, unsigned *out) {
  __shared__ unsigned s[64];
  unsigned t = threadIdx.x;
  unsigned v = t > 0 ? in[t - 1] : 0;
  s[t] = in[t];
#ifdef WRITTEN
  if (t == 0) in[100] = 1;
#endif
  __barrier_invariant(s[threadIdx.x] == in[threadIdx.x], threadIdx.x);
  __barrier_invariant(__implies(threadIdx.x > 0, v == in[LEFT(threadIdx.x)]), threadIdx.x);
  __barrier_invariant(in[threadIdx.x + 1] == in[threadIdx.x + 1], threadIdx.x);
  __syncthreads();
  s[t] += v;
  __assert(__implies(t > 0, s[t] == in[t] + in[t - 1]));
  out[t] = s[t];
}
