// expect: verified
// --blockDim=256 --gridDim=1
// solvers: yices cvc5
// expect: verified
// --blockDim=[*,1,1] --gridDim=1 --assume=(blockDim.x&(blockDim.x-1))==0
// solvers: yices z3
// expect: verified
// --blockDim=4 --gridDim=1 -DN=8 -DINVARIANTS --split-invariants
// solvers: yices
// expect: verified
// --blockDim=32 --gridDim=1 -DN=64 -DINVARIANTS --split-invariants -DABSTRACT
// solvers: yices
#include <cuda.h>

// Blelloch's work-efficient exclusive scan (prescan), the kernel of Figure 2 of Chong et al. (OOPSLA 2013)
// (prescan.h): N elements, N / 2 threads.
//
// Race freedom needs no invariant: the sweeps' indices depend on threadIdx.x and the
// offset only (the first two runs: 256 threads, and any number of threads whose count is a
// power of two; N defaults to 2 * blockDim.x).
//
// With -DINVARIANTS (and a fixed N) its barrier invariants (prescan.h, Chong et al. (OOPSLA 2013) section 4.1)
// prove it computes the exact prefix sums with + on 32-bit integers; --split-invariants asks
// each invariant once per thread, where the sums are ground (z3 4.8.12 leaves them
// unanswered within its limit; yices takes 5 s at N = 8, cvc5 33 s). With -DABSTRACT as well,
// for any associative operator with an identity (scan.h's summation intervals).
#ifndef N
#define N (2 * blockDim.x)
#endif
#include "prescan.h"

__global__ void blelloch(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[2 * 1024];
  unsigned t = threadIdx.x;
  s[2 * t] = ELEM(2 * t);
  s[2 * t + 1] = ELEM(2 * t + 1);
  prescan(s, in, t);
  out[2 * t] = s[2 * t];
  out[2 * t + 1] = s[2 * t + 1];
}
