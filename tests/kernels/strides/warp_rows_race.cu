// warp_rows.cu with the lanes stepping by 16, not 32: lanes 0 and 16 of a warp both write
// element 16 of its row, a race on `out`.
#include <cuda_runtime.h>

__global__ void warp_rows(float* out, const float* in, int B, int T, int C) {
    int warps = blockDim.x / 32;
    int base = blockIdx.x * warps + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    for (int idx = base; idx < B * T; idx += gridDim.x * warps) {
        int b = idx / T;
        int t = idx % T;
        float* out_bt = out + b * T * C + t * C;
        for (int i = lane; i < C; i += 16) {
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
