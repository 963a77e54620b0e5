// expect: verified
// --blockDim=64 --gridDim=2
// Each thread copies its own 8-byte struct (a padding byte included) with memcpy.
struct item { short a; char b; int c; };

__global__ void k(const item *in, item *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  memcpy(&out[i], &in[i], sizeof(item));
}
