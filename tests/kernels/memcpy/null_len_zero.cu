// expect: verified
// --blockDim=32 --gridDim=1
// Copying nothing from a null pointer is no defect.
__global__ void k(int *out) {
  memcpy(&out[threadIdx.x], 0, 0);
  out[threadIdx.x] = 1;
}
