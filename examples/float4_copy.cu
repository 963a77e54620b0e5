// expect: verified
// --blockDim=128 --gridDim=16
#include <cuda.h>

__device__ float4 scale(float4 v, float s) {
    return make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
}

// Each thread copies its own float4 (16 bytes), scaled, from `in` to `out`, and
// then fills the tail of its chunk of `flat` (floats 4i+1..4i+3) through the
// float view after writing the whole chunk as a float4: no two threads touch
// the same bytes.
__global__ void float4_copy(const float4 *in, float4 *out, float *flat, float s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];
    float4 w = (i % 2 == 0) ? scale(v, s) : v;
    out[i] = w;
    reinterpret_cast<float4 *>(flat)[i] = make_float4(w.x, 0.0f, 0.0f, 0.0f);
    for (int k = 1; k < 4; k++)
        flat[4 * i + k] = w.y;
}
