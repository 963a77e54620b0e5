// `half` promises a positive result for every positive argument, but 1 / 2 is 0. The kernel
// passes 5 and 6 only, where it holds: inlined, the kernel is verified; with --modular the
// contract itself is checked, for every argument its __requires admits.
__device__ int half(int a) {
  __requires(a > 0);
  __ensures(__return_val_int() > 0);
  return a / 2;
}

__global__ void k(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = half(5) + half(6);
}
