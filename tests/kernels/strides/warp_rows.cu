// A warp per row, the rows visited by a grid-stride loop whose stride depends on the device
// (llm.c's layernorm_backward_kernel3): row `idx` is split into (b, t) by the literal T, and
// its C elements are written at `out + b*T*C + t*C` by the warp's lanes. Race-free: two
// threads meet at one element only in one row (the loop's injectivity) and one lane.
#include <cuda_runtime.h>

__global__ void warp_rows(float* out, const float* in, int B, int T, int C) {
    int warps = blockDim.x / 32;
    int base = blockIdx.x * warps + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    for (int idx = base; idx < B * T; idx += gridDim.x * warps) {
        int b = idx / T;
        int t = idx % T;
        float* out_bt = out + b * T * C + t * C;
        for (int i = lane; i < C; i += 32) {
            out_bt[i] = out_bt[i] + in[i];
        }
    }
}

int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int B = 8, T = 1024, C = 1600;
    float *out, *in;
    cudaMalloc(&out, B * T * C * sizeof(float));
    cudaMalloc(&in, C * sizeof(float));
    warp_rows<<<prop.multiProcessorCount, 256>>>(out, in, B, T, C);
    cudaDeviceSynchronize();
    return 0;
}
