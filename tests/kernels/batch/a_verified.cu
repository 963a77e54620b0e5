//pass
//--blockDim=64 --gridDim=2
// Each thread scales its own element (a run over many files reads the flags above).
__global__ void scale(float *v, float s) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = s * v[i];
}
