// expect: verified
// --blockDim=64 --gridDim=4
// A `float4` local seen as `float[4]` through `reinterpret_cast<float *>(&v)` in a function
// taking it by reference: element k is field k (a case split on a variable index), read and
// written; the indices each thread writes come from its own `int4`.
__device__ float &lane(float4 &v, int k) { return reinterpret_cast<float *>(&v)[k]; }
__device__ int lane(const int4 &v, int k) { return reinterpret_cast<const int *>(&v)[k]; }

__global__ void gather(const float4 *in, float *out, int *flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  int4 slots = make_int4(4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3);
  float s = 0.0f;
  for (int k = 0; k < 4; ++k) {
    s += lane(v, k);
    flags[lane(slots, k)] = i;
  }
  lane(v, 3) = s;
  out[i] = v.w;
}
