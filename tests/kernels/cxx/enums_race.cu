// expect: race on out
// --blockDim=128 --gridDim=2
// As enums_constexpr.cu, but the column-major branch writes with the wrong stride: block 1's
// thread 0 writes the element block 0's thread 64 writes (each its block index: different
// values, so the race is not benign).
typedef unsigned int uint;
enum class Layout { RowMajor = 0, ColMajor = 1 };
constexpr int kStride = 64;

__global__ void fill(uint *out, Layout layout) {
  uint i = blockIdx.x * kStride + threadIdx.x;
  if (layout == Layout::ColMajor)
    out[i] = blockIdx.x;
  else
    out[blockIdx.x * 128 + threadIdx.x] = 1u;
}
