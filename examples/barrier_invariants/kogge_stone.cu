// expect: verified
// --blockDim=1024 --gridDim=1
// expect: verified
// --blockDim=[*,1,1] --gridDim=1
// expect: verified
// --blockDim=8 --gridDim=1 -DN=8 -DINVARIANTS --split-invariants
// solvers: yices
// expect: verified
// --blockDim=64 --gridDim=1 -DN=64 -DINVARIANTS -DABSTRACT
// expect: barrier_invariant
// --blockDim=8 --gridDim=1 -DN=8 -DINVARIANTS --split-invariants -DOFF_BY_ONE
// solvers: yices
#include <cuda.h>

// Kogge and Stone's inclusive scan (Chong et al. (OOPSLA 2013) section 4.2, Figure 8): one thread per element,
// each adding in the element `d` places to its left, for d = 1, 2, 4, ... < N. Race-free for
// any number of threads (the first two runs), since a thread reads s[t - d] and writes s[t]
// in different barrier intervals.
//
// With -DINVARIANTS (a fixed N) the barrier invariants say what each element holds: the sum of
// the 2d inputs ending at it (fewer at the left edge). The scan is then proved to compute the
// inclusive prefix sums with + on 32-bit integers (wrapping). --split-invariants asks each
// invariant once per thread, where the sums are ground. z3 4.8.12 leaves these queries
// unanswered within its limit (yices takes 0.4 s at N = 8, cvc5 3.5 s).
//
// With -DABSTRACT as well, the values are the paper's abstract domain of summation intervals
// (its "abstract Kogge-Stone"; scan.h): an element is the range of inputs it combines, and
// combining two is allowed only for adjacent ranges, checked by an assertion. This holds for
// any associative operator, and its invariants need no sums.
//
// -DOFF_BY_ONE reads the neighbour one place too far right (s[t - d + 1]): no race, but the
// invariant on the value read fails, at the thread that shows it.
#ifdef OFF_BY_ONE
#define NEIGHBOUR(t, d) ((t) - (d) + 1)
#else
#define NEIGHBOUR(t, d) ((t) - (d))
#endif
#ifndef N
#define N blockDim.x
#endif
#include "scan.h"

// The sum of the w inputs ending at element x (from input 0 where x < w - 1).
#define HOLDS(x, w) (s[x] == SUM(MAX((int)(x) + 1 - (int)(w), 0), (int)(x) + 1))
#define VALUE_HOLDS(v, x, w) ((v) == SUM(MAX((int)(x) + 1 - (int)(w), 0), (int)(x) + 1))
// The thread keeps its own element across the barrier (reads it for the invariants).
#define KEEP(x) __read_permission(unsigned, s[x])

__global__ void kogge_stone(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[1024];
  unsigned t = threadIdx.x;
  s[t] = ELEM(t);
#ifdef INVARIANTS
  __barrier_invariant(HOLDS(TID, 1), TID, TID - 1);
#endif
  __syncthreads();
  for (unsigned d = 1; d < N; d <<= 1) {
    unsigned v = 0;
    if (t >= d) v = s[NEIGHBOUR(t, d)];
#ifdef INVARIANTS
    KEEP(t);
    // Each thread keeps its own element and what it read of its neighbour's.
    __barrier_invariant(HOLDS(TID, d), TID, TID - d);
    __barrier_invariant(__implies(TID >= d, VALUE_HOLDS(v, TID - d, d)), TID);
#endif
    __syncthreads();
    if (t >= d) {
      unsigned mine = s[t];
      ADJACENT(v, mine);
      s[t] = OP(v, mine);
    }
#ifdef INVARIANTS
    KEEP(t);
    __barrier_invariant(HOLDS(TID, 2 * d), TID, TID - 2 * d);
#endif
    __syncthreads();
  }
  out[t] = s[t];
}
