// expect: assertion
// --blockDim=32 --gridDim=1
// A null destination: the call is a defect where it is reached.
__global__ void k(const int *in) {
  memcpy(NULL, &in[threadIdx.x], sizeof(int));
}
