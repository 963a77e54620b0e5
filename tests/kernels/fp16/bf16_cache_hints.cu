// expect: verified
// --blockDim=64 --gridDim=4
// Cache-hinted loads and stores of bfloat16 (`__ldcs`, `__stcs`: asm with a "memory" clobber in
// CUDA's headers) are reads and writes of the element: each thread copies its own.
#include <cuda_bf16.h>
__global__ void stream_copy(__nv_bfloat16 *out, const __nv_bfloat16 *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) __stcs(out + i, __ldcs(in + i));
}
