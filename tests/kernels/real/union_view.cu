// expect: verified
// --blockDim=64 --gridDim=16
// A union viewing an int as two shorts (NVIDIA's dct8x8 `PackedShorts`): a local union lives
// in memory, each member at offset 0, so the halves read are the bytes of the int written.
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
  p.word = in[i];
  out[2 * i] = p.lo;
  out[2 * i + 1] = p.hi;
}
