// launches: verified
//
#include <cuda_runtime.h>

// A 2-D launch: dim3 block(16, 16) and a grid covering a 1000 x 600 image. gpug evaluates the
// dim3s: blockDim = (16, 16, 1), gridDim = (63, 38, 1), w = 1000, h = 600.
__global__ void scale2d(float *out, const float *in, int w, int h, float k) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col < w && row < h) {
        out[row * w + col] = k * in[row * w + col];
    }
}

int main() {
    int w = 1000, h = 600;
    float *in, *out;
    cudaMalloc(&in, w * h * sizeof(float));
    cudaMalloc(&out, w * h * sizeof(float));
    dim3 block(16, 16);
    dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
    scale2d<<<grid, block>>>(out, in, w, h, 2.0f);
    cudaDeviceSynchronize();
    return 0;
}
