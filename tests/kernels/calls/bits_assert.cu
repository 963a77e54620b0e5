// expect: holds
// --blockDim=1 --gridDim=1
// `gpug check`: the intrinsics agree with their definitions for every argument.
#include <assert.h>

__global__ void k(unsigned x, int y, unsigned z) {
  assert(__brev(__brev(x)) == x);
  assert(__ffs(1 << (x % 32)) == (int)(x % 32) + 1);
  assert(__popc(x) + __popc(~x) == 32);
  assert(__clz(x) + __ffs(x) <= 33);
  assert(__clzll(0) == 64 && __popcll(~0ull) == 64 && __ffsll(1ll << 40) == 41);
  assert(__mulhi(y, 8) == (y >> 29));
  assert(__umulhi(x, 1u << 31) == x >> 1);
  assert(__umul24(x + (1u << 24), 2u) == 2 * (x & 0xffffff));
  assert(__mul24(0xffffff, 3) == -3);
  assert(__sad(y, y, z) == z && __usad(1u, 4u, z) == z + 3);
  assert(__hadd(0x7fffffff, 1) == 0x40000000 && __rhadd(2, 3) == 3);
  assert(umin(0xffffffffu, x) == x && max(-1, y) >= y && abs(-5) == 5);
}
