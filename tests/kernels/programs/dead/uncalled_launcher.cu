// A whole program whose dispatcher calls one launcher only when a macro is not defined, as
// llm.c's `layernorm_backward.cu` does (`#if !defined(ENABLE_BF16)` around `case 1`). The
// file defines ENABLE_BF16, so `launch_racy` is called by nothing: its launch of the racy
// kernel is never made, and the kernel is not verified (a note says why). `launch_scale` is
// called through the dispatcher, so `scale` is verified at main's launch. `launch_also_racy`
// is called by `helper_nobody_calls` only, which nothing calls either: dead too, and its
// kernel not verified. `launch_by_pointer` is never called by name but its address is taken
// in main: it may be called, so its kernel is verified (for every launch), and its race
// reported. `launch_template<float>` launches `guarded` with main's `n`: only that
// instantiation runs, not the template's pattern (whose `n` would be unknown), so `guarded`,
// racy only for n > 2048, is verified. `tiled<16>` (racy) is launched only under
// `if (block == 16)`, and main passes 32 (cuda-samples' matrixMul): never launched, not
// verified; `tiled<32>` is verified at its launch.
#include <cuda_runtime.h>

#define ENABLE_BF16

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

__global__ void racy(float *out, const float *in) { out[0] = in[threadIdx.x]; }

__global__ void also_racy(float *out, const float *in) { out[0] = in[threadIdx.x]; }

__global__ void racy_by_pointer(float *out, const float *in) { out[0] = in[threadIdx.x]; }

void launch_racy(float *out, const float *in, int n) { racy<<<1, n>>>(out, in); }

void launch_also_racy(float *out, const float *in, int n) { also_racy<<<1, n>>>(out, in); }

void helper_nobody_calls(float *out, const float *in) { launch_also_racy(out, in, 64); }

void launch_by_pointer(float *out, const float *in, int n) { racy_by_pointer<<<1, n>>>(out, in); }

__global__ void guarded(float *x, int n) {
  if (n > 2048) x[0] = threadIdx.x;
}

template <typename T> void launch_template(T *x, int n) { guarded<<<1, 256>>>(x, n); }

template <int B> __global__ void tiled(float *x) {
  if (B == 16) x[0] = threadIdx.x;
  else x[blockIdx.x * B + threadIdx.x] = 0.0f;
}

void launch_tiled(float *x, int block) {
  if (block == 16) tiled<16><<<4, 16>>>(x);
  else tiled<32><<<4, 32>>>(x);
}

void launch_scale(float *x, int n) { scale<<<(n + 255) / 256, 256>>>(x, n); }

void dispatch(int which, float *x, const float *in, int n) {
  switch (which) {
#if !defined(ENABLE_BF16)
  case 1:
    launch_racy(x, in, n);
    break;
#endif
  default:
    launch_scale(x, n);
  }
}

int main(int argc, char **argv) {
  const int n = 1024;
  float *x, *in;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&in, n * sizeof(float));
  dispatch(argc, x, in, n);
  launch_template<float>(x, n);
  launch_tiled(x, 32);
  void (*f)(float *, const float *, int) = launch_by_pointer;
  if (argc > 5) f(x, in, n);
  cudaFree(x);
  return 0;
}
