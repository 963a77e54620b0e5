// expect: verified
// --blockDim=[*,1,1] --gridDim=[*,1,1] --assume=(blockDim.x&(blockDim.x-1))==0 --no-overflow -DSPEC
// solvers: yices cvc5
// expect: verified
// --blockDim=64 --gridDim=64 --no-overflow -DSPEC
// expect: verified
// --blockDim=4 --gridDim=1 -DN=8 -DINVARIANTS --split-invariants
// solvers: yices
#include <cuda.h>

// Stream compaction (Chong et al. (OOPSLA 2013) section 2): each block keeps the nonzero elements of its N
// inputs, in order, at the front of its N outputs. A thread handles two elements; a flag says
// whether each is kept; Blelloch's prescan of the flags (prescan.h) gives each kept element
// its slot. Whether two threads write the same slot depends on the values the prescan
// computed in shared memory: without a barrier invariant the pair model forgets them at the
// barrier and can only report a possible race.
//
// Staged and modular, as the paper verifies it (section 5). With -DSPEC the race check
// assumes the prescan's monotone specification (below; `__assume`), for any number of threads
// that is a power of two and any number of blocks: the flag of an element plus its slot is
// at most the slot of any later element, and at most N. With -DINVARIANTS, at a fixed N, the
// prescan's barrier invariants prove its exact result, from which the monotone specification
// (asserted at the end) follows, and the same compaction is race-free (yices: 1.7 s at N = 8;
// z3 4.8.12 and cvc5 leave the invariants unanswered within 60 s).
#ifndef N
#define N (2 * blockDim.x)
#endif
#define IN(i) (in[i] != 0 ? 1u : 0u)
#include "prescan.h"

// The prescan's monotone specification for elements i and j of one block: an element's slot
// and flag do not reach the slot of a later one, nor past the block's N outputs.
#define MONOTONE(i, j) (__implies((i) < (j), s[i] + IN(i) <= s[j]) && s[i] + IN(i) <= N)
#define OTHER __other_int(TID)
#define SPECIFICATION                                                                          \
  (MONOTONE(2 * TID, 2 * OTHER) && MONOTONE(2 * TID, 2 * OTHER + 1) &&                       \
   MONOTONE(2 * TID + 1, 2 * OTHER) && MONOTONE(2 * TID + 1, 2 * OTHER + 1) &&               \
   MONOTONE(2 * TID, 2 * TID + 1))

__global__ void compact(const unsigned *data, unsigned *out) {
  __shared__ unsigned s[2 * 1024];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * N;
  const unsigned *in = data + base;
  s[2 * t] = IN(2 * t);
  s[2 * t + 1] = IN(2 * t + 1);
#ifdef SPEC
  __syncthreads();
  __assume(SPECIFICATION);
#else
  prescan(s, in, t);
  __assert(SPECIFICATION);
#endif
  if (IN(2 * t)) {
    out[base + s[2 * t]] = in[2 * t];
  }
  if (IN(2 * t + 1)) {
    out[base + s[2 * t + 1]] = in[2 * t + 1];
  }
}
