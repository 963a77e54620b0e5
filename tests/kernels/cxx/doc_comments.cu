// expect: verified
// --blockDim=64 --gridDim=4
/// Documentation comments (`///`, `/** */`, and the `////` rulers of NVIDIA's samples) attach
/// to the declaration that follows, a loop variable's too; they carry nothing to verify (a
/// loop with a barrier after one was refused: "expression `FullComment`", NVIDIA's scalarProd).
__global__ void row_sums(float *out, const float *in, int rows) {
    __shared__ float acc[64];
    ////////////////////////////////////////////////////////////////////////
    // every row, one block at a time
    ////////////////////////////////////////////////////////////////////////
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        acc[threadIdx.x] = in[row * 64 + threadIdx.x];
        ////////////////////////////////////////////////////////////////////
        // tree reduction
        ////////////////////////////////////////////////////////////////////
        for (int stride = 32; stride > 0; stride >>= 1) {
            __syncthreads();
            if (threadIdx.x < stride)
                acc[threadIdx.x] += acc[threadIdx.x + stride];
        }
        __syncthreads();
        if (threadIdx.x == 0)
            out[row] = acc[0];
        __syncthreads();
    }
}
