// expect: verified
// --blockDim=128 --gridDim=64
// llm.c's Packed128: a typedef of a template specialization, built from an int4 by memcpy,
// stored to shared memory declared as an array of pointers, one 16-byte pack per thread.
#include <cuda_bf16.h>
template <class ElementType> struct alignas(16) Packed128 {
  Packed128() = default;
  __device__ explicit Packed128(int4 bits) { memcpy(&payload, &bits, sizeof(bits)); }
  static constexpr const int size = sizeof(int4) / sizeof(ElementType);
  ElementType payload[size];
};
typedef Packed128<__nv_bfloat16> x128;
__device__ x128 load128(const __nv_bfloat16 *address) {
  return x128{*reinterpret_cast<const int4 *>(__builtin_assume_aligned(address, 16))};
}
__global__ void stage(const __nv_bfloat16 *weight, int C) {
  extern __shared__ char *params[];
  x128 *s_weight = reinterpret_cast<x128 *>(params);
  for (int i = threadIdx.x * x128::size; i < C; i += blockDim.x * x128::size) {
    s_weight[i / x128::size] = load128(weight + i);
  }
  __syncthreads();
}
