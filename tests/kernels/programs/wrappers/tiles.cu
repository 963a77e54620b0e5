// Half a program: the kernels and their launch wrappers. main.cpp, beside it, calls
// run_tile with the sizes; read alone, `width` is unknown and a width below the block's 64
// threads makes neighbouring blocks' rows overlap (a race). run_racy is declared by main.cpp
// but called by no file: its kernel is never launched.
__global__ void tile(float *out, const float *in, int width) {
  out[blockIdx.x * width + threadIdx.x] = 2.0f * in[blockIdx.x * width + threadIdx.x];
}

__global__ void racy(float *out) { out[threadIdx.x / 2] = threadIdx.x; }

extern "C" void run_tile(float *out, const float *in, int width, int rows) {
  tile<<<rows, 64>>>(out, in, width);
}

extern "C" void run_racy(float *out) { racy<<<1, 64>>>(out); }
