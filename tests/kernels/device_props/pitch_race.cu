// A 2-D array of cudaMallocPitch: rows start half a pitch apart (`pitch / 2`): the pitch
// is at least the width, so a row of 1000 elements overlaps the next: a real race.
#include <cstdio>

__global__ void fill(float *out, int pitch, int width) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width)
        out[y * (pitch / 2) + x] = (float)y;
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
