// `gpug check` computes votes over every lane of the warp (issue 12): each lane's bit of a
// ballot is its own predicate, `__any_sync` agrees with the ballot, `__activemask` in a branch
// names the lanes that take it, and `__syncthreads_count` counts the block's predicates.
// -DBUG asserts that some input is nonzero, which fails when all are zero.
__global__ void votes(const int *in, int *out) {
  unsigned lane = threadIdx.x & 31;
  int p = in[threadIdx.x] != 0;
  unsigned b = __ballot_sync(0xffffffff, p);
  __assert(((b >> lane) & 1) == (unsigned)p);
  __assert((__any_sync(0xffffffff, p) != 0) == (b != 0));
  if (lane < 8) {
    __assert(__activemask() == 0xffu);
  }
  int c = __syncthreads_count(p);
  __assert(c <= (int)blockDim.x);
  __assert((c == 0) == (__syncthreads_or(p) == 0));
#ifdef BUG
  __assert(b != 0);
#endif
  out[threadIdx.x] = c;
}
