// The host half of rows.cu, with CUDA's driver API (cuda-samples' vectorAddDrv).
#include <cuda.h>

int main() {
  cuInit(0);
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  CUcontext ctx;
  cuCtxCreate(&ctx, 0, dev);
  CUmodule module;
  cuModuleLoad(&module, "rows.fatbin");
  int transpose = 0;
  CUfunction f;
  if (transpose)
    cuModuleGetFunction(&f, module, "columns");
  else
    cuModuleGetFunction(&f, module, "rows");
  int width = 256;
  CUdeviceptr out;
  cuMemAlloc(&out, 16 * width * sizeof(float));
  void *args[] = {&out, &width};
  cuLaunchKernel(f, 16, 1, 1, 64, 1, 1, 0, 0, args, 0);
  cuCtxSynchronize();
  return 0;
}
