// expect: verified
// --blockDim=64 --gridDim=4
// uniform_offset_barrier_loop.cu without its `__uniform_int(base)` invariant. Each iteration
// writes one half of `s` and reads the other after a barrier; the half is chosen by `base`,
// which is not a closed form of the iteration count (`& 127`). The kernel is race-free because
// both threads agree on `base`, which gpug's uniformity analysis (`encode/ssa/uniform.rs`,
// after GPUVerify's, Chong et al. (OOPSLA 2013) §3.3) infers: `base` is assigned only uniform values under
// uniform control. (Before it, this kernel needed the invariant and was a possible race.)
__global__ void rotate(int *out, int n) {
  __shared__ int s[128];
  unsigned base = 0;
  int acc = 0;
  for (int it = 0;
       it < n; it++) {
    s[base + threadIdx.x] = it + threadIdx.x;
    __syncthreads();
    acc += s[(base + 63 - threadIdx.x) & 127];
    __syncthreads();
    base = (base + 64) & 127;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
