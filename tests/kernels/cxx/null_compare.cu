// expect: verified
// --blockDim=64 --gridDim=4
// Pointer parameters compared with `nullptr`, `NULL` and `0`, and tested as truth values
// (`if (p)`, `!p`): the launch may pass null or not, the same for every thread, so a barrier
// under such a test is not divergent. A local pointer to a `__shared__` array is not null,
// so the write under `tile == nullptr` never happens.
#include <stddef.h>

__global__ void add_bias(float *out, const float *bias, const float *scale) {
  __shared__ float tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float b = (bias != nullptr) ? bias[i] : 0.0f;
  if (scale == NULL) {
    tile[threadIdx.x] = b;
  } else {
    tile[threadIdx.x] = b * scale[i];
  }
  if (!bias || scale != 0) {
    __syncthreads();
  }
  float *t = tile;
  if (t == nullptr) {
    out[0] = 1.0f;
  }
  if (out) {
    out[i] = tile[threadIdx.x];
  }
}
