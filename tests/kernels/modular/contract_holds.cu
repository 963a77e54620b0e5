// `twice` keeps its promise for every argument its __requires admits (no overflow below 2^30).
__device__ int twice(int a) {
  __requires(a > 0 && a < (1 << 30));
  __ensures(__return_val_int() > a);
  return 2 * a;
}

__global__ void k(int *out, int n) {
  __requires(n > 0 && n < 1000);
  out[blockIdx.x * blockDim.x + threadIdx.x] = twice(n);
}
