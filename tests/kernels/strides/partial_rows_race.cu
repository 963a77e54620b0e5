// partial_rows.cu with each block's slab C floats apart, not 2*C: block b's squares are
// block b + 1's sums, a race on `scratch`.
#include <cuda_runtime.h>

__global__ void partial_rows(float* scratch, int C) {
    scratch += 32;
    float* sums = scratch;
    float* squares = scratch + C;
    for (int i = threadIdx.x * 4; i < C; i += blockDim.x * 4) {
        float v = (float)(i + blockIdx.x);
        *reinterpret_cast<float4*>(sums + i + C * blockIdx.x) = make_float4(v, v, v, v);
        *reinterpret_cast<float4*>(squares + i + C * blockIdx.x) = make_float4(v * v, v, v, v);
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
