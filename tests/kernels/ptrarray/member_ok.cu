// expect: verified
// --blockDim=64 --gridDim=4
// A by-value struct of pointers: each element is a pointer parameter of its own; thread `gid`
// writes element `gid` of `bufs.out[2]` and reads element `gid` of `bufs.out[0]`.
struct buffers {
  float *out[4];
  int n;
};

__global__ void scatter(buffers bufs) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  bufs.out[2][gid] = bufs.out[0][gid] * 2.0f + bufs.n;
}
