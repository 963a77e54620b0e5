// The image size comes from a file, through out-parameters (cuda-samples' sdkLoadPGM): the
// width is unknown but one value after the call, so the grid main computes from it
// (width / 8 blocks of 8) and the width it passes after cudaMalloc agree: x < width, every
// thread its own pixel. Before, every later call (cudaMalloc) made the width another
// unknown, the grid lost its relation to the argument, and threads past the row's end raced
// with the next row.
bool load_image(const char *path, unsigned *width, unsigned *height);

__global__ void invert(float *img, unsigned width) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  img[y * width + x] = 1.0f - img[y * width + x];
}

int main(int argc, char **argv) {
  unsigned width = 0, height = 0;
  if (!load_image(argv[1], &width, &height)) return 1;
  dim3 block(8, 8);
  dim3 grid(width / block.x, height / block.y);
  float *img;
  cudaMalloc(&img, width * height * sizeof(float));
  invert<<<grid, block>>>(img, width);
  return 0;
}
