// expect: verified (with the flags of its entries in the compilation database)
// --blockDim=[*,1,1] --gridDim=[*,1,1]
// Each thread copies two elements of its block's tile through shared memory; a block has TILE
// threads, TILE being -DTILE=64 in CMake's target `tiles` and -DTILE=32 in `tiles_half`.
#include "tile_config.h"

__global__ void tile_copy(const int *in, int *out) {
  __requires(blockDim.x == TILE);
  __shared__ int tile[TILE_ELEMS];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * TILE_ELEMS;
  tile[t] = in[base + t];
  tile[t + TILE] = in[base + t + TILE];
  __syncthreads();
  out[base + t] = tile[t];
  out[base + t + TILE] = tile[t + TILE];
}
