// expect: verified
// --blockDim=128 --gridDim=8
// expect: race
// --blockDim=128 --gridDim=8 -DNO_GRID_SYNC
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Two phases over the whole grid (issue 12): each thread writes its element, then reads its
// neighbour's, which another block may own. Only the grid-wide barrier of a cooperative
// launch (this_grid().sync()) orders the two phases across blocks; __syncthreads() would order
// them within a block only. Without it (-DNO_GRID_SYNC) the last thread of one block reads
// what the first thread of the next one writes.
__global__ void shift_left(int *a, int *b) {
    cg::grid_group grid = cg::this_grid();
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned n = gridDim.x * blockDim.x;
    a[i] = (int)i * 3;
#ifdef NO_GRID_SYNC
    __syncthreads();
#else
    grid.sync();
#endif
    b[i] = a[(i + 1) % n];
}
