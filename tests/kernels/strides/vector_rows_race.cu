// vector_rows.cu with the columns stepping by 16 vectors, not 32: lane 16's first vector is
// lane 0's second, a race on `out` (with another value: a lane stores its own index).
#include <cuda_runtime.h>

__global__ void vector_rows(short* out, int N, int C) {
    int cidx = threadIdx.x * 8;
    for (int t = blockIdx.x * blockDim.y + threadIdx.y; t < N; t += gridDim.x * blockDim.y) {
        short* row = out + C * t;
        for (int c = cidx; c < C; c += 16 * 8) {
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
