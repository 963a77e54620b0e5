// expect: race on C
// --blockDim=[32,32]
// cuda-samples' MatrixMulCUDA<32> store: rows `wB` elements apart, the grid symbolic. A width
// below the block's 32 columns overlaps rows with no overflow (wB = 1): a race of launches the
// program can have. The first witness z3 finds overflows `wB * 32 * by` instead (wB =
// -1237778437); the witness shown is one with no signed overflow.
__global__ void mm(int *C, int wB) {
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int c = wB * 32 * by + 32 * bx;
    C[c + wB * ty + tx] = tx;
}
