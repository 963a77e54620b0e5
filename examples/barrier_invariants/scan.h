/* gpug's scan examples (Chong et al. (OOPSLA 2013) section 4): the sums their barrier invariants state, written
 * out for a fixed N, a power of two of at most 256 elements.
 *
 * SUM(lo, end) is IN(lo) + ... + IN(end - 1): N guarded terms IN(i), 0 where i is outside
 * [lo, end) (lo and end are ints; an empty range sums to 0). IN(i) is the scanned value of
 * element i, `in[i]` unless the kernel defines it: the invariants read the input, which no
 * thread writes, rather than a copy in shared memory that each barrier would forget. The sum
 * is a balanced tree of +, so clang's AST stays shallow. */
#ifndef N
#error define N, the number of elements (a power of two, at most 256)
#endif
#ifndef IN
#define IN(i) in[i]
#endif
#define TID ((int)threadIdx.x)
#define SUM_T(lo, end, i) (((lo) <= (i) && (i) < (end)) ? IN(i) : 0u)
#define SUM_1(lo, end, b) SUM_T(lo, end, b)
#define SUM_2(lo, end, b) (SUM_1(lo, end, b) + SUM_1(lo, end, (b) + 1))
#define SUM_4(lo, end, b) (SUM_2(lo, end, b) + SUM_2(lo, end, (b) + 2))
#define SUM_8(lo, end, b) (SUM_4(lo, end, b) + SUM_4(lo, end, (b) + 4))
#define SUM_16(lo, end, b) (SUM_8(lo, end, b) + SUM_8(lo, end, (b) + 8))
#define SUM_32(lo, end, b) (SUM_16(lo, end, b) + SUM_16(lo, end, (b) + 16))
#define SUM_64(lo, end, b) (SUM_32(lo, end, b) + SUM_32(lo, end, (b) + 32))
#define SUM_128(lo, end, b) (SUM_64(lo, end, b) + SUM_64(lo, end, (b) + 64))
#define SUM_256(lo, end, b) (SUM_128(lo, end, b) + SUM_128(lo, end, (b) + 128))
#define SUM_CAT(n) SUM_##n
#define SUM_OF(n) SUM_CAT(n)
#define SUM(lo, end) SUM_OF(N)(lo, end, 0)

/* The operator the scans combine elements with. By default + on 32-bit integers (wrapping),
 * identity 0, and SUM as above. With ABSTRACT defined, the paper's abstract domain of
 * summation intervals (section 4.2; section 5 asks it for every scan): a value is the
 * half-open range [lo, end) of inputs it combines, packed as lo << 16 | end; element i of the
 * input is [i, i + 1), the identity 0 is the empty range [0, 0), and combining a with b is
 * allowed only when they are adjacent, a's end being b's start (ADJACENT, an assertion), to
 * give [lo(a), end(b)). A scan proved with it combines exactly the right inputs in the right
 * order, so it computes the prefix sums of any associative operator with an identity; its
 * invariants compare two 32-bit words, where + needs N-term sums. */
#ifndef ABSTRACT
#define ELEM(i) IN(i)
#define OP(a, b) ((a) + (b))
#define ADJACENT(a, b)
#else
#undef SUM
#define RANGE(lo, end) ((unsigned)(lo) << 16 | (unsigned)(end))
#define RANGE_LO(v) ((v) >> 16)
#define RANGE_END(v) ((v) & 0xffffu)
#define SUM(lo, end) RANGE(lo, end)
#define ELEM(i) RANGE(i, (i) + 1)
#define OP(a, b) RANGE(RANGE_LO(a), RANGE_END(b))
#define ADJACENT(a, b) __assert(RANGE_END(a) == RANGE_LO(b))
#endif

/* The tree of the Blelloch and Brent-Kung sweeps (Chong et al. (OOPSLA 2013) section 4): thread t's left and
 * right child at offset o, and the lowest set bit of x + 1 (the width of the range element x
 * sums after a full upsweep). */
#define AI(t, o) ((o) * (2 * (t) + 1) - 1)
#define BI(t, o) ((o) * (2 * (t) + 2) - 1)
#define LOWBIT(x) (((x) + 1) & ~(x))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
