// expect: verified
// --blockDim=64 --gridDim=4
// User-written constructors are inlined with their object as `this` (member initializers
// first, then the body, which may `memcpy` into an array member), a temporary made by one is
// a value, and an initializer list in an expression is a struct value: thread i writes its own
// elements only, at the indices the constructors compute.
struct Bits {
  int x, y;
};
struct Pack {
  float v[2];
  int row;
  __device__ explicit Pack(Bits b) : row(b.y) { memcpy(&v, &b, sizeof(b)); }
  __device__ Pack(int r, float a) : row(2 * r + 1) {
    v[0] = a;
    v[1] = a;
  }
};
struct Pair {
  int lo;
  float hi;
};

__device__ int first(Pair p) { return p.lo; }
__device__ Pair make(int i) { return Pair{2 * i, 1.0f}; }

__global__ void build(float *out, int *rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Pack p(Bits{0, 2 * i});
  Pack q = Pack(i, 3.0f);
  rows[p.row] = i;
  rows[q.row] = i;
  out[first({2 * i, 0.5f})] = q.v[1];
  out[make(i).lo + 1] = 2.0f;
}
