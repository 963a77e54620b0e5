// A grid-stride loop over a cooperative group's grid: `grid.size()` is 64 bits wide, so
// C computes `i = (int)((long long)i + grid.size())`. Each thread strides by the whole grid
// from its own rank, so no two threads meet (conjugateGradientMultiBlockCG's loops).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define N 1000

__device__ void scale(float *y, const cg::grid_group &grid) {
    for (int i = grid.thread_rank(); i < N; i += grid.size())
        y[i] = 2 * y[i];
}

__global__ void grid_group_stride(float *x, float *y) {
    cg::grid_group grid = cg::this_grid();
    for (int i = grid.thread_rank(); i < N; i += grid.size())
        x[i] = x[i] + 1;
    scale(y, grid);
}
