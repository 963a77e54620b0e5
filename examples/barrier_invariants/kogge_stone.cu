// expect: verified
// --blockDim=1024 --gridDim=1
// expect: verified
// --blockDim=[*,1,1] --gridDim=1
// expect: verified
// --blockDim=8 --gridDim=1 -DN=8 -DINVARIANTS --split-invariants
// solvers: yices cvc5
// expect: verified
// --blockDim=64 --gridDim=1 -DN=64 -DINVARIANTS -DABSTRACT
// expect: barrier_invariant
// --blockDim=8 --gridDim=1 -DN=8 -DINVARIANTS --split-invariants -DOFF_BY_ONE
// solvers: yices cvc5
#include <cuda.h>

// Kogge and Stone's inclusive scan (paper 001 section 4.2, Figure 8): one thread per element,
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
// (its "abstract Kogge-Stone"): an element is the interval [lo, hi] of inputs it combines, and
// combining two is allowed only for adjacent intervals, [a, b] (+) [b + 1, c] = [a, c], checked
// by an assertion. This holds for any associative operator, and its invariants need no sums.
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

#ifndef ABSTRACT
// The sum of the w inputs ending at element x (from input 0 where x < w - 1).
#define HOLDS(x, w) (s[x] == SUM((int)(x) + 1 - (int)(w), (int)(x) + 1))
#define VALUE_HOLDS(v, x, w) ((v) == SUM((int)(x) + 1 - (int)(w), (int)(x) + 1))
// The thread keeps its own element across the barrier (reads it for the invariants).
#define KEEP(x) __read_permission(unsigned, s[x])
#else
#define HOLDS(x, w) (lo[x] == MAX((int)(x) + 1 - (int)(w), 0) && hi[x] == (int)(x))
#define VALUE_HOLDS(v, x, w) (v##_lo == MAX((int)(x) + 1 - (int)(w), 0) && v##_hi == (int)(x))
#define KEEP(x) (__read_permission(int, lo[x]), __read_permission(int, hi[x]))
#endif

__global__ void kogge_stone(const unsigned *in, unsigned *out) {
#ifndef ABSTRACT
  __shared__ unsigned s[1024];
#else
  __shared__ int lo[1024];
  __shared__ int hi[1024];
#endif
  unsigned t = threadIdx.x;
#ifndef ABSTRACT
  s[t] = in[t];
#else
  lo[t] = t;
  hi[t] = t;
#endif
#ifdef INVARIANTS
  __barrier_invariant(HOLDS(TID, 1), TID, TID - 1);
#endif
  __syncthreads();
  for (unsigned d = 1; d < N; d <<= 1) {
#ifndef ABSTRACT
    unsigned v = 0;
    if (t >= d) v = s[NEIGHBOUR(t, d)];
#else
    int v_lo = 0, v_hi = 0;
    if (t >= d) {
      v_lo = lo[t - d];
      v_hi = hi[t - d];
    }
#endif
#ifdef INVARIANTS
    KEEP(t);
    // Each thread keeps its own element and what it read of its neighbour's.
    __barrier_invariant(HOLDS(TID, d), TID, TID - d);
    __barrier_invariant(__implies(TID >= d, VALUE_HOLDS(v, TID - d, d)), TID);
#endif
    __syncthreads();
    if (t >= d) {
#ifndef ABSTRACT
      s[t] += v;
#else
      __assert(v_hi + 1 == lo[t]);
      lo[t] = v_lo;
#endif
    }
#ifdef INVARIANTS
    KEEP(t);
    __barrier_invariant(HOLDS(TID, 2 * d), TID, TID - 2 * d);
#endif
    __syncthreads();
  }
#ifndef ABSTRACT
  out[t] = s[t];
#else
  out[t] = hi[t] - lo[t];
#endif
}
