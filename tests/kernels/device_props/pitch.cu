// A 2-D array of cudaMallocPitch: row y starts `pitch` elements after row y - 1, and the
// pitch is at least the row's width, so the rows do not overlap.
#include <cstdio>

__global__ void fill(float *out, int pitch, int width) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width)
        out[y * pitch + x] = (float)y;
}

int main() {
    const int width = 1000, height = 512;
    float *out;
    size_t pitchBytes;
    cudaMallocPitch((void **)&out, &pitchBytes, width * sizeof(float), height);
    dim3 block(32, 8);
    dim3 grid((width + 31) / 32, height / 8);
    fill<<<grid, block>>>(out, (int)(pitchBytes / sizeof(float)), width);
    cudaDeviceSynchronize();
    cudaFree(out);
    return 0;
}
