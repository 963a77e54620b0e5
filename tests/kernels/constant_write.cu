// A kernel that writes `__constant__` memory: a defect (constant memory is read-only in
// kernels), found where the write is reached; the guarded write of `scale` never is.
__constant__ float coeff[64];
__constant__ int scale;

__global__ void k(const float *in, float *out, int n) {
  unsigned i = threadIdx.x;
  out[i] = in[i] * coeff[i];
  if (n < 0 && n > 0) {
    scale = 2;
  }
  if (i == 3) {
    coeff[i] = out[i];
  }
}
