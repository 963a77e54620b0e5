// expect: verified
// --blockDim=64 --gridDim=4
// Default arguments of device functions and methods, left out at some calls: the parameter
// takes its default value (a constant, an enum, a `constexpr`), so thread i writes elements
// 4i to 4i+3 only.
enum Lane { FIRST = 0, LAST = 3 };
constexpr int WIDTH = 4;

__device__ int slot(int i, int lane = LAST, int width = WIDTH) { return i * width + lane; }

struct Writer {
  float *out;
  __device__ void put(int i, float v, int lane = FIRST) { out[slot(i, lane)] = v; }
};

__global__ void fill(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[slot(i)] = 1.0f;
  out[slot(i, 1)] = 2.0f;
  Writer w{out};
  w.put(i, 3.0f);
  w.put(i, 4.0f, 2);
}
