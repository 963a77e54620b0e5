// expect: race on out
// --blockDim=64 --gridDim=4
// The same 16-byte struct of eight bf16 values stored at element 4i: neighbouring threads'
// stores overlap by 8 bytes.
#include <cuda_bf16.h>

struct alignas(16) Pack {
  __nv_bfloat16 x[8];
};

__global__ void k(__nv_bfloat16 *out, const Pack *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Pack p = in[i];
  *reinterpret_cast<Pack *>(out + 4 * i) = p;
}
