/* gpug's scan examples: the upsweep shared by Blelloch's prescan (prescan.h) and the
 * Brent-Kung scan (brent_kung.cu), Chong et al. (OOPSLA 2013) section 4: N elements of shared memory, N / 2
 * threads, partial sums built in a tree in place. After it, element x holds the sum of the
 * LOWBIT(x) inputs ending at it (element N - 1 the sum of all N).
 *
 * With INVARIANTS defined (and a fixed N), its barrier invariants (Chong et al. (OOPSLA 2013) section 4.1)
 * state what every element a thread keeps holds, as a sum of a range of the input IN
 * (scan.h). Each thread keeps (by `__read_permission`) the elements it will touch again: the
 * left children of the levels it took part in, and its last write. After the barrier a thread
 * learns its children's elements through the instances 2t and 2t + 1. */
#include "scan.h"

// Upsweep, before the barrier of offset `o` (the levels below o done). Thread t's elements:
// the left child AI(t, 2^(j-1)) of each level 2^j <= o it took part in (t < N / 2^j), the sum
// of the first half of its block of 2^j elements, and the right child it wrote last, the sum of
// its block of o elements (at the first barrier: its two input elements).
#define UP_LEFT(t, o, j)                                                                       \
  __implies((1 << (j)) <= MAX(o, 2) && (t) < (N >> (j)),                                       \
            s[AI(t, 1 << ((j) - 1))] == SUM((t) << (j), ((t) << (j)) + (1 << ((j) - 1))))
#define UP_MINE(t, o)                                                                          \
  (UP_LEFT(t, o, 1) && UP_LEFT(t, o, 2) && UP_LEFT(t, o, 3) && UP_LEFT(t, o, 4) &&           \
   UP_LEFT(t, o, 5) && UP_LEFT(t, o, 6) && UP_LEFT(t, o, 7) && UP_LEFT(t, o, 8) &&           \
   __implies((t) < N / MAX(o, 2), s[BI(t, MAX((o) / 2, 1))] == SUM(MAX(o, 2) * (t) + MAX(o, 2) - MAX(o, 1), MAX(o, 2) * ((t) + 1))))
#define UP_KEEP_LEFT(t, o, j)                                                                  \
  if ((1 << (j)) <= MAX(o, 2) && (t) < (N >> (j)))                                             \
    __read_permission(unsigned, s[AI(t, 1 << ((j) - 1))]);
#define UP_KEEP(t, o)                                                                          \
  UP_KEEP_LEFT(t, o, 1) UP_KEEP_LEFT(t, o, 2) UP_KEEP_LEFT(t, o, 3) UP_KEEP_LEFT(t, o, 4)     \
  UP_KEEP_LEFT(t, o, 5) UP_KEEP_LEFT(t, o, 6) UP_KEEP_LEFT(t, o, 7) UP_KEEP_LEFT(t, o, 8)     \
  if ((t) < N / MAX(o, 2)) __read_permission(unsigned, s[BI(t, MAX((o) / 2, 1))]);

// The upsweep over s[0 .. N - 1], which holds the inputs ELEM(0 .. N - 1) on entry (thread t
// loaded elements 2t and 2t + 1). Ends before a barrier: the caller's next barrier (with its
// invariant) closes the last level.
__device__ void upsweep(unsigned *s, const unsigned *in, unsigned t) {
  unsigned offset = 1;
  for (unsigned d = N >> 1; d > 0; d >>= 1) {
#ifdef INVARIANTS
    UP_KEEP(t, offset)
    __barrier_invariant(UP_MINE(TID, offset), TID, 2 * TID, 2 * TID + 1);
#endif
    __syncthreads();
    if (t < d) {
      unsigned a = s[AI(t, offset)], b = s[BI(t, offset)];
      ADJACENT(a, b);
      s[BI(t, offset)] = OP(a, b);
    }
    offset <<= 1;
  }
}
