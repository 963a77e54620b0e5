// expect: race on out
// --blockDim=64 --gridDim=1
// One byte too many: the last byte lands in the neighbour's element.
struct item { short a; char b; int c; };

__global__ void k(const item *in, item *out) {
  __builtin_memcpy(&out[threadIdx.x], &in[threadIdx.x], sizeof(item) + 1);
}
