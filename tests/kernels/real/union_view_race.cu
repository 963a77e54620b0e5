// expect: race on out
// --blockDim=64 --gridDim=16
// The same union, its high half used as an index: the int's upper 16 bits, zeroed here, so
// every thread writes element 0.
union PackedShorts {
  struct __align__(4) {
    short lo;
    short hi;
  };
  unsigned int word;
};
__global__ void unpack(const unsigned *in, short *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  PackedShorts p;
  p.word = in[i] & 0xffffu;
  out[(unsigned short)p.hi] = p.lo;
}
