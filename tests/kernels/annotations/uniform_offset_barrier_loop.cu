// expect: verified
// --blockDim=64 --gridDim=4
// Each iteration writes one half of `s` and reads the other after a barrier; the half is
// chosen by `base`, which is not a closed form of the iteration count (`& 127`). Both threads
// of a block share the iteration (barriers), and `__uniform_int(base)` tells gpug that they
// agree on `base` there: without it the two threads' halves are unrelated and the writes may
// race (see uniform_offset_barrier_loop_no_invariant.cu).
__global__ void rotate(int *out, int n) {
  __shared__ int s[128];
  unsigned base = 0;
  int acc = 0;
  for (int it = 0;
       __invariant(__uniform_int(base)),
       it < n; it++) {
    s[base + threadIdx.x] = it + threadIdx.x;
    __syncthreads();
    acc += s[(base + 63 - threadIdx.x) & 127];
    __syncthreads();
    base = (base + 64) & 127;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
