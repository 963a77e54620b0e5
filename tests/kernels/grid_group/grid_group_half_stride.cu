// As grid_group_stride.cu, but striding by half the grid: thread r and thread r + 128 meet.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define N 1000

__global__ void grid_group_half_stride(float *x) {
    cg::grid_group grid = cg::this_grid();
    for (int i = grid.thread_rank(); i < N; i += grid.size() / 2)
        x[i] = x[i] + 1;
}
