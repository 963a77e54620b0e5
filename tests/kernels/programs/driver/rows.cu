// Kernels for the driver API: driver.cpp, beside this file, loads the module, fetches `rows`
// by name and launches it with cuLaunchKernel (rows of 256 for blocks of 64 threads:
// disjoint). Read alone, `width` is unknown and a width below 64 makes the rows of
// neighbouring blocks overlap. `columns` is fetched under a branch the host's values never
// take, but its name is in the program's text: it is verified for every launch.
extern "C" __global__ void rows(float *out, int width) {
  out[blockIdx.x * width + threadIdx.x] = threadIdx.x;
}

extern "C" __global__ void columns(float *out, int height) {
  out[threadIdx.x * height + blockIdx.x] = threadIdx.x;
}
