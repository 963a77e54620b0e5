// expect: verified
// --blockDim=64 --gridDim=16
// A pointer to an array substituted into a template parameter (NVIDIA's MC_EstimatePiInlineQ
// with cuRAND's direction vectors), which clang 14 prints as an array of pointers.
typedef unsigned int directions_t[32];
template <class V> __global__ void spread(V *const dirs, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = dirs[1][threadIdx.x % 32];
}
template __global__ void spread<directions_t>(directions_t *const, unsigned *);
