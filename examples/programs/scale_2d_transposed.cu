// launches: race
//
#include <cuda_runtime.h>

// scale_2d.cu with the output index transposed by mistake: out[col * w + row]. The image is
// 600 wide and 1000 high, so row reaches past w: (col, row) = (0, 600) and (1, 0) both write
// out[600], a race at the launch the program makes.
__global__ void scale2d(float *out, const float *in, int w, int h, float k) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col < w && row < h) {
        out[col * w + row] = k * in[row * w + col];
    }
}

int main() {
    int w = 600, h = 1000;
    float *in, *out;
    cudaMalloc(&in, w * h * sizeof(float));
    cudaMalloc(&out, w * h * sizeof(float));
    dim3 block(16, 16);
    dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
    scale2d<<<grid, block>>>(out, in, w, h, 2.0f);
    cudaDeviceSynchronize();
    return 0;
}
