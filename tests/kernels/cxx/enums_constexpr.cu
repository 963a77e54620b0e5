// expect: verified
// --blockDim=128 --gridDim=2
// An `enum class`, a plain enum, `constexpr` and `static const` values, and a `typedef`'d
// element type decide the indices: each thread writes its own element of the tile it owns.
typedef unsigned int uint;
enum class Layout { RowMajor = 0, ColMajor = 1 };
enum { TILE = 128 };
constexpr int kStride = TILE;
static const int kOffset = 0;

__global__ void fill(uint *out, Layout layout) {
  uint i = blockIdx.x * kStride + threadIdx.x + kOffset;
  if (layout == Layout::RowMajor)
    out[i] = 1u;
  else
    out[i] = 2u;
}
