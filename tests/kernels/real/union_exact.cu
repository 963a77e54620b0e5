// expect: verified
// --blockDim=64 --gridDim=16
// The union's bytes are exact: with the high half zeroed, the index read back through the
// short member is 0 for every thread, and only thread 0 of block 0 writes.
union PackedShorts {
  struct __align__(4) {
    short lo;
    short hi;
  };
  unsigned int word;
};
__global__ void first(const unsigned *in, short *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  PackedShorts p;
  p.word = (in[i] & 0xffffu) | (i << 16);
  if (i < 65536 && (unsigned short)p.hi == 0) out[0] = p.lo;
}
