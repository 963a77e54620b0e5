// expect: race on bufs.out[1]
// --blockDim=64 --gridDim=4
// Every thread writes element 0 of `bufs.out[1]`: a write-write race there, and only there.
struct buffers {
  float *out[4];
  int n;
};

__global__ void scatter(buffers bufs) {
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  bufs.out[3][gid] = 1.0f;
  bufs.out[1][0] = bufs.out[3][gid];
}
