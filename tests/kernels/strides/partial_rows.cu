// Each block writes its partial sums, a row of C floats and a row of C squares, as 16-byte
// vectors into a scratch slab after a 128-byte line kept for a flag (llm.c's
// layernorm_backward_kernel10: `scratch += 32`). Race-free: block b's bytes are
// [128 + 8*C*b, 128 + 8*C*(b + 1)).
#include <cuda_runtime.h>

__global__ void partial_rows(float* scratch, int C) {
    scratch += 32;
    float* sums = scratch;
    float* squares = scratch + C;
    for (int i = threadIdx.x * 4; i < C; i += blockDim.x * 4) {
        float v = (float)(i + blockIdx.x);
        *reinterpret_cast<float4*>(sums + i + 2 * C * blockIdx.x) = make_float4(v, v, v, v);
        *reinterpret_cast<float4*>(squares + i + 2 * C * blockIdx.x) = make_float4(v * v, v, v, v);
    }
}

int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int C = 1600;
    int grid = 4 * prop.multiProcessorCount;
    float* scratch;
    cudaMalloc(&scratch, (32 + 2 * C * grid) * sizeof(float));
    partial_rows<<<grid, 256>>>(scratch, C);
    cudaDeviceSynchronize();
    return 0;
}
