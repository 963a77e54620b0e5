// expect: race on out
// --blockDim=64 --gridDim=4
// As struct_array_copy.cu, but thread i's byte is in record i + 1, whose last array element
// (`pairs[1].flags[1]`, byte 23) the whole-record copy of thread i + 1 writes.
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
  out[i] = q;
  out[i + 1].pairs[1].flags[1] = 7;
}
