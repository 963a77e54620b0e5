// expect: race
// --blockDim=[*,*,1] --gridDim=[*,*,1] --no-overflow
#include <cuda.h>

// The 2-D kernel of matrix_2d_symbolic.cu with the index transposed by mistake:
// m[col * width + row]. Threads (col, row) = (0, width) and (1, 0) both touch m[width] when
// height > width: a race in a launch of two columns and width + 1 rows, with or without
// --no-overflow.
__global__ void scale_2d_transposed(float *m, float s, int width, int height) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col < width && row < height) {
        m[col * width + row] = s * m[col * width + row];
    }
}
