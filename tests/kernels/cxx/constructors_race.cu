// expect: race on rows
// --blockDim=64 --gridDim=4
// As constructors.cu, but the constructor's body swaps the fields it is given: every thread's
// `p.row` is 0 (taking the constructor for a copy of `Bits` field by field would give 2i).
struct Bits {
  int x, y;
};
struct Pack {
  int row;
  int col;
  __device__ explicit Pack(const Bits &b) {
    row = b.y;
    col = b.x;
  }
};

__global__ void build(int *rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Bits b{2 * i, 0};
  Pack p(b);
  rows[p.row] = i;
}
