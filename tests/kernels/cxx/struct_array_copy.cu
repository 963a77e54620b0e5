// expect: verified
// --blockDim=64 --gridDim=4
// Whole structs with array members copied from, between and to memory (`Quad p = in[i]`,
// `q = p`, `out[2 * i] = q`): each copy is every element of every member, at its offset and
// width, so the 32-byte record thread i writes ends just before the byte thread i writes in
// the next record.
struct Pair {
  short tag;
  char flags[2];
};
struct Quad {
  float v[4];
  Pair pairs[2];
  int count;
};

__global__ void repack(const Quad *in, Quad *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Quad p = in[i];
  Quad q;
  q = p;
  q.v[3] = q.v[0] + 1.0f;
  out[2 * i] = q;
  out[2 * i + 1].pairs[1].flags[1] = 7;
}
