// expect: verified
// --blockDim=64 --gridDim=4 --gpu-arch=sm_80
// Conversions and bit reinterpretations whose values never reach an index: constructors,
// casts, `__ushort_as_bfloat16`/`__bfloat16_as_ushort` (sm_80 in CUDA 11's header) and the
// half equivalents, bf16 arithmetic and comparisons.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void k(__nv_bfloat16 *out, __half *h, unsigned short *bits, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __nv_bfloat16 a = __nv_bfloat16(in[i]);
  __nv_bfloat16 b = __ushort_as_bfloat16((unsigned short)i);
  __nv_bfloat16 c = a * b + __float2bfloat16((float)i);
  if (c > a) {
    c = c - b;
  }
  out[i] = (__nv_bfloat16)((float)c / 3.0f);
  bits[i] = __bfloat16_as_ushort(c);
  h[i] = __ushort_as_half(__half_as_ushort(__float2half(in[i])));
}
