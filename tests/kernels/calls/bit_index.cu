// expect: verified
// --blockDim=256 --gridDim=1
// Addresses decided by exact integer intrinsics: each thread writes its own slot.
__global__ void k(unsigned *a, int *b, int *c, int *d) {
  unsigned t = threadIdx.x;
  // 31 - clz(1 << (t % 32)) is t % 32.
  b[(31 - __clz(1 << (t % 32))) + 32 * (t / 32)] = 1;
  // ffs(1 << k) is k + 1.
  c[__ffs(1 << (t % 32)) - 1 + 32 * (t / 32)] = 2;
  // popc(t & 1) is t % 2.
  a[__popc(t & 1u) + 2 * (t >> 1)] = t;
  // brev is a bijection.
  d[__brev(t) >> 24] = 3;
  d[256 + __umul24(t, 1u)] = 4;
  d[512 + min(t, 255u) + __mulhi(t, 0)] = 5;
}
