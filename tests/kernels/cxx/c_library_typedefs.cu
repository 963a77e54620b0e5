// expect: verified
// --blockDim=64 --gridDim=2
// The C library's integer typedefs (from the precompiled headers, which the kernel file's AST
// does not declare) have their glibc widths: each thread writes its own element of each array.
#include <stdint.h>
__global__ void widths(uint8_t *bytes, int16_t *shorts, uint32_t *words, int64_t *longs, clock_t *ticks) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  bytes[i] = (uint8_t)i;
  shorts[i] = (int16_t)i;
  words[i] = i;
  longs[i] = i;
  ticks[i] = clock();
}
