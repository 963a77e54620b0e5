// expect: race on surface memory
// --blockDim=[16,16] --gridDim=[8,8]
// x is a byte offset: writing float texels at x = threadIdx.x (not 4 * x) makes neighbours'
// 4-byte writes overlap.
__global__ void fill(cudaSurfaceObject_t dst) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  surf2Dwrite(1.0f, dst, x, y);
}
