// expect: verified
// --local_size=[16,16] --num_groups=[4,4]
// expect: race
// --local_size=[16,16] --num_groups=[4,4] -DNO_BARRIER
//
// Matrix transpose through local memory: a work-group loads a 16x16 tile row by row and writes
// it out column by column. The barrier orders the tile's writes before its transposed reads;
// without it a work-item reads a tile word another work-item has not written yet.

#define TILE 16
#define W 64

__kernel void transpose(__global const float *in, __global float *out) {
  __local float tile[TILE][TILE + 1];
  unsigned lx = get_local_id(0), ly = get_local_id(1);
  unsigned x = get_group_id(0) * TILE + lx;
  unsigned y = get_group_id(1) * TILE + ly;
  tile[ly][lx] = in[y * W + x];
#ifndef NO_BARRIER
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  x = get_group_id(1) * TILE + lx;
  y = get_group_id(0) * TILE + ly;
  out[y * W + x] = tile[lx][ly];
}
