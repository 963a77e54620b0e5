// expect: verified
// --blockDim=32 --gridDim=1
// Four bytes at two bytes past the start of the thread's own int: the windows [4t+2, 4t+6) of
// the threads do not overlap.
__global__ void k(int *out) {
  int v = threadIdx.x;
  memcpy((char *)&out[threadIdx.x] + 2, &v, sizeof(int));
}
