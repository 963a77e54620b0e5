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
// expect: assertion
// --blockDim=4 --gridDim=1 -DN=8 -DINVARIANTS --split-invariants -DABSTRACT -DSWAPPED
// solvers: yices
#include <cuda.h>

// The Brent-Kung inclusive scan (Chong et al. (OOPSLA 2013) section 4.1, "Brent-Kung"): N elements, N / 2
// threads. Its upsweep is Blelloch's (upsweep.h); its downsweep then works over a forest: at
// offset o each active thread t adds the complete prefix sum ending at element 2o(t + 1) - 1
// into the element o places to its right, o(2t + 3) - 1, which held the upsweep's sum of the o
// inputs ending there. After offset 1 every element holds the sum of the inputs up to it.
//
// Race freedom needs no invariant (the first two runs: 256 threads, and any number of threads
// that is a power of two). With -DINVARIANTS (a fixed N) the barrier invariants below prove the
// exact inclusive prefix sums: with + on 32-bit integers (wrapping), and with -DABSTRACT for
// any associative operator (scan.h's summation intervals). -DSWAPPED combines the two operands
// of the downsweep in the wrong order: a defect only an operator that does not commute can
// show, which the abstract operator finds (its adjacency assertion fails).
#ifndef N
#define N (2 * blockDim.x)
#endif
#include "upsweep.h"

// Thread t's write at downsweep offset o (it reads BI(t, o), the complete prefix before it),
// and whether t is active at that offset. Defined for t of type int (an instance).
#define BK_R(t, o) ((o) * (2 * (t) + 3) - 1)
#define BK_ACTIVE(t, o) ((t) >= 0 && (t) + 1 < N / (2 * (o)))

// The downsweep after offset p (p = N / 2 at the first barrier: the upsweep's last level).
// Thread t's elements: the two it accessed at offset p, which hold complete prefix sums; the
// left children of the levels still to come (offsets below p), which hold their upsweep sums
// (thread 0 keeps all its own: element 2^j - 1 is both); and, for thread 0, the total, element
// N - 1, which nobody touches in the downsweep.
#define BK_LEFT(t, p, j)                                                                       \
  __implies(((1 << ((j) - 1)) < (p) || (t) == 0) && (t) >= 0 && (t) < (N >> (j)),              \
            s[AI(t, 1 << ((j) - 1))] == SUM((t) << (j), ((t) << (j)) + (1 << ((j) - 1))))
#define BK_DONE(t, p)                                                                          \
  (BK_LEFT(t, p, 1) && BK_LEFT(t, p, 2) && BK_LEFT(t, p, 3) && BK_LEFT(t, p, 4) &&           \
   BK_LEFT(t, p, 5) && BK_LEFT(t, p, 6) && BK_LEFT(t, p, 7) && BK_LEFT(t, p, 8) &&           \
   __implies(BK_ACTIVE(t, p), s[BI(t, p)] == SUM(0, 2 * (p) * ((t) + 1)) &&                  \
                                  s[BK_R(t, p)] == SUM(0, (p) * (2 * (t) + 3))) &&             \
   __implies((t) == 0, s[N - 1] == SUM(0, N)))
#define BK_KEEP_LEFT(t, p, j)                                                                  \
  if (((1 << ((j) - 1)) < (p) || (t) == 0) && (t) < (N >> (j)))                                \
    __read_permission(unsigned, s[AI(t, 1 << ((j) - 1))]);
#define BK_KEEP(t, p)                                                                          \
  BK_KEEP_LEFT(t, p, 1) BK_KEEP_LEFT(t, p, 2) BK_KEEP_LEFT(t, p, 3) BK_KEEP_LEFT(t, p, 4)     \
  BK_KEEP_LEFT(t, p, 5) BK_KEEP_LEFT(t, p, 6) BK_KEEP_LEFT(t, p, 7) BK_KEEP_LEFT(t, p, 8)     \
  if ((t) == 0) __read_permission(unsigned, s[N - 1]);

__global__ void brent_kung(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[2 * 1024];
  unsigned t = threadIdx.x;
  s[2 * t] = ELEM(2 * t);
  s[2 * t + 1] = ELEM(2 * t + 1);
  upsweep(s, in, t);
  unsigned offset = N / 2;
  for (unsigned d = 2; d < N; d <<= 1) {
    offset >>= 1;
#ifdef INVARIANTS
    // After the barrier thread t reads the prefix BI(t, o), which thread t / 2 (t odd) or
    // t / 2 - 1 (t even) wrote or read at offset 2o (thread 0: its own left child), and
    // element BK_R(t, o), the left child thread t + 1 kept.
    BK_KEEP(t, 2 * offset)
    __barrier_invariant(BK_DONE(TID, 2 * offset), TID, TID / 2, TID / 2 - 1, TID + 1, 0);
#endif
    __syncthreads();
    if (t + 1 < d) {
      unsigned prefix = s[BI(t, offset)], right = s[BK_R(t, offset)];
#ifndef SWAPPED
      ADJACENT(prefix, right);
      s[BK_R(t, offset)] = OP(prefix, right);
#else
      ADJACENT(right, prefix);
      s[BK_R(t, offset)] = OP(right, prefix);
#endif
    }
  }
#ifdef INVARIANTS
  // After offset 1: element 2t + 1 is thread t's (thread 0's total for the last thread),
  // element 2t thread t - 1's write (thread 0's own left child for t = 0).
  BK_KEEP(t, 1)
  __barrier_invariant(BK_DONE(TID, 1), TID, TID - 1, 0);
  __syncthreads();
  // The result, known to this thread and the other: the inclusive prefix sums.
  __read_permission(unsigned, s[2 * t]);
  __read_permission(unsigned, s[2 * t + 1]);
  __barrier_invariant(s[2 * TID] == SUM(0, 2 * TID + 1) && s[2 * TID + 1] == SUM(0, 2 * TID + 2), TID, __other_int(TID));
#endif
  __syncthreads();
  out[2 * t] = s[2 * t];
  out[2 * t + 1] = s[2 * t + 1];
}
