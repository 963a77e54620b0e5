// The loop bounds of main.cpp's host loop are `extern "C" const` globals that main.cpp only
// declares (through the header) and this file defines (cuda-samples' scan): their values come
// from these definitions, so the loop runs 64, 128, 256 and each launch has its own `width`.
// For a width below 64 (a symbolic width) the rows of a block would overlap.
#include <cuda_runtime.h>
#include "sizes.h"

__global__ void rows(unsigned *d, unsigned width) {
  d[blockIdx.x * 64 + threadIdx.x % width] = threadIdx.x;
}

extern "C" const unsigned MIN_WIDTH = 64;
extern "C" const unsigned MAX_WIDTH = 256;

extern "C" void run_rows(unsigned *d, unsigned width) {
  rows<<<16, 64>>>(d, width);
}
