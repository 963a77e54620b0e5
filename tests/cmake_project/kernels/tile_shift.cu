// expect: race on tile (with the flags of its entry in the compilation database)
// --blockDim=[*,1,1] --gridDim=[*,1,1]
// Each thread reads its neighbour's element of the tile with no barrier after the writes:
// thread t + SHIFT_BY writes what thread t reads.
#include "tile_config.h"

#ifndef SHIFT_BY
#error "SHIFT_BY must be defined (target_compile_definitions in CMakeLists.txt)"
#endif

__global__ void tile_shift(const int *in, int *out) {
  __requires(blockDim.x == TILE);
  __shared__ int tile[TILE];
  unsigned t = threadIdx.x;
  tile[t] = in[blockIdx.x * TILE + t];
  out[blockIdx.x * TILE + t] = tile[(t + SHIFT_BY) % TILE];
}
