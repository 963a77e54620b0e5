// expect: unsupported at 8:7
// --blockDim=32 --gridDim=1
// An address the host passes as an integer points nowhere gpug knows: refused with its place.
#include <stdint.h>

__global__ void int_from_param(uintptr_t where) {
  int *p =
      reinterpret_cast<int *>(where);
  p[threadIdx.x] = 0;
}
