// expect: unsupported
// --blockDim=64 --gridDim=1
// Which pointer `bufs.out[k]` is depends on `k`: not modelled (the elements are pointer
// parameters of their own, reached by constant subscripts only).
struct buffers {
  float *out[4];
};

__global__ void pick(buffers bufs, int k) {
  bufs.out[k][threadIdx.x] = 1.0f;
}
