// Rows of C 2-byte elements, each row's columns written as 16-byte vectors by the lanes of a
// warp (8 elements a lane), the rows visited by a grid-stride loop over the block's warps
// (llm.c's fused_residual_forward_kernel6 and its store128). Race-free: a vector's bytes
// stay in its row, and two lanes' columns differ by a multiple of 8 elements.
#include <cuda_runtime.h>

__global__ void vector_rows(short* out, int N, int C) {
    int cidx = threadIdx.x * 8;
    for (int t = blockIdx.x * blockDim.y + threadIdx.y; t < N; t += gridDim.x * blockDim.y) {
        short* row = out + C * t;
        for (int c = cidx; c < C; c += 32 * 8) {
            *reinterpret_cast<int4*>(row + c) = make_int4(t, c, threadIdx.x, 1);
        }
    }
}

int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int N = 8192, C = 768;
    short* out;
    cudaMalloc(&out, N * C * sizeof(short));
    vector_rows<<<prop.multiProcessorCount, dim3(32, 4)>>>(out, N, C);
    cudaDeviceSynchronize();
    return 0;
}
