// expect: verified
// --blockDim=256 --gridDim=64
// A platform's header that is not installed (a window toolkit's), needed by host code only:
// read as empty; the struct at file scope that fails with it is named by no device code.
#include <gpug_test_window_toolkit.h>
struct Window {
  WtHandle handle;
  int width;
};
__global__ void scale(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}
int main() {
  Window w;
  wtOpen(&w.handle, WT_DEFAULT);
  return 0;
}
