// expect: race on s
// --blockDim=32 --gridDim=1 --warp-sync=32
// Lock-step does not order the writes of one statement: every lane stores its own id into
// s[0] at once, a write-write race of different values.
__global__ void last_writer(int *out) {
  __shared__ int s[1];
  s[0] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[0];
}
