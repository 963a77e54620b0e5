// expect: race on out
// --blockDim=64 --gridDim=4
// As default_args.cu, but the default width is 2: thread i's lane 3 (2i + 3) is thread i+1's
// lane 1.
enum Lane { FIRST = 0, LAST = 3 };
constexpr int WIDTH = 2;

__device__ int slot(int i, int lane = LAST, int width = WIDTH) { return i * width + lane; }

__global__ void fill(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[slot(i)] = 1.0f;
  out[slot(i, 1)] = 2.0f;
}
