// expect: unsupported
// --blockDim=32 --gridDim=1
// __constant__ memory is read-only in kernels.
__constant__ int c[32];

__global__ void k(const int *in) {
  memcpy(&c[threadIdx.x], &in[threadIdx.x], sizeof(int));
}
