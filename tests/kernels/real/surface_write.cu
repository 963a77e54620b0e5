// expect: verified
// --blockDim=[16,16] --gridDim=[8,8]
// Each thread writes its own texel of a 2-D surface (x in bytes) and reads its own texel of
// another: surface reads and writes by object are accesses of one surface memory.
__global__ void copy(cudaSurfaceObject_t dst, cudaSurfaceObject_t src) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  float v = surf2Dread<float>(src, x * 4, y);
  surf2Dwrite(v * 2.0f, dst, x * 4, y);
}
