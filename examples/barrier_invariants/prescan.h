/* gpug's scan examples: Blelloch's work-efficient exclusive scan (prescan), the kernel of paper
 * 001's Figure 2, as a device function over N elements of shared memory run by N / 2 threads:
 * the upsweep (upsweep.h) builds partial sums in a tree, then a downsweep turns them into
 * prefix sums, in place.
 *
 * With INVARIANTS defined (and a fixed N), the barrier invariants of Chong et al. (OOPSLA 2013) section 4.1
 * state what every element holds, as a sum of a range of the input IN (scan.h): the scan is
 * then proved to compute the exact prefix sums, checked at every barrier of the unrolled
 * sweeps. Each thread keeps (by `__read_permission`) the elements it will touch again: the left
 * children of the levels still to come, and its last writes. After the barrier a thread learns
 * its parent's elements through the instance t / 2. */
#include "upsweep.h"

// Downsweep, before the barrier of offset `o` (levels 2o and above done). Thread t's elements:
// the left children of the levels still to come, which hold their upsweep sums, and the two it
// wrote at level 2o (the root, cleared by thread 0, at the first), which hold the exclusive
// prefix sums up to their ranges.
#define DOWN_LEFT(t, o, j)                                                                     \
  __implies((1 << ((j) - 1)) <= (o) && (t) < (N >> (j)),                                       \
            s[AI(t, 1 << ((j) - 1))] == SUM((t) << (j), ((t) << (j)) + (1 << ((j) - 1))))
#define DOWN_MINE(t, o)                                                                        \
  (DOWN_LEFT(t, o, 1) && DOWN_LEFT(t, o, 2) && DOWN_LEFT(t, o, 3) && DOWN_LEFT(t, o, 4) &&   \
   DOWN_LEFT(t, o, 5) && DOWN_LEFT(t, o, 6) && DOWN_LEFT(t, o, 7) && DOWN_LEFT(t, o, 8) &&   \
   __implies((t) < N / (4 * (o)) || (t) == 0, s[AI(t, 2 * (o))] == SUM(0, 4 * (o) * (t))) &&  \
   __implies((t) < N / (4 * (o)), s[BI(t, 2 * (o))] == SUM(0, 4 * (o) * (t) + 2 * (o))))
#define DOWN_KEEP_LEFT(t, o, j)                                                                \
  if ((1 << ((j) - 1)) <= (o) && (t) < (N >> (j)))                                             \
    __read_permission(unsigned, s[AI(t, 1 << ((j) - 1))]);
#define DOWN_KEEP(t, o)                                                                        \
  DOWN_KEEP_LEFT(t, o, 1) DOWN_KEEP_LEFT(t, o, 2) DOWN_KEEP_LEFT(t, o, 3)                      \
  DOWN_KEEP_LEFT(t, o, 4) DOWN_KEEP_LEFT(t, o, 5) DOWN_KEEP_LEFT(t, o, 6)                      \
  DOWN_KEEP_LEFT(t, o, 7) DOWN_KEEP_LEFT(t, o, 8)                                              \
  if ((t) < N / (4 * (o)) || (t) == 0) __read_permission(unsigned, s[AI(t, 2 * (o))]);        \
  if ((t) < N / (4 * (o))) __read_permission(unsigned, s[BI(t, 2 * (o))]);

// The exclusive prefix sums of ELEM(0 .. N - 1) into s[0 .. N - 1], which holds the inputs on
// entry (thread t loaded elements 2t and 2t + 1); ends with a barrier.
__device__ void prescan(unsigned *s, const unsigned *in, unsigned t) {
  upsweep(s, in, t);
  unsigned offset = N;
  if (t == 0) {
    s[N - 1] = 0;
  }
  for (unsigned d = 1; d < N; d <<= 1) {
    offset >>= 1;
#ifdef INVARIANTS
    DOWN_KEEP(t, offset)
    __barrier_invariant(DOWN_MINE(TID, offset), TID, TID / 2);
#endif
    __syncthreads();
    if (t < d) {
      unsigned left = s[AI(t, offset)], prefix = s[BI(t, offset)];
      s[AI(t, offset)] = prefix;
      ADJACENT(prefix, left);
      s[BI(t, offset)] = OP(prefix, left);
    }
  }
#ifdef INVARIANTS
  // The result: the exclusive prefix sums of the input, known to this thread and the other.
  __barrier_invariant(s[2 * TID] == SUM(0, 2 * TID) && s[2 * TID + 1] == SUM(0, 2 * TID + 1), TID, __other_int(TID));
#endif
  __syncthreads();
}
