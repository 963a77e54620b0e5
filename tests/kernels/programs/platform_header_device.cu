// expect: unsupported
// --blockDim=256 --gridDim=64
// The same header, but a kernel takes the struct that needs it: the file stays refused, with
// the missing header as the reason.
#include <gpug_test_window_toolkit.h>
struct Window {
  WtHandle handle;
  int width;
};
__global__ void resize(Window *w, int n) {
  if (threadIdx.x == 0) w->width = n;
}
