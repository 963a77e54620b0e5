// expect: race on out
// --blockDim=32 --gridDim=1
// The thread's own int copied to two bytes past its start: the write's last two bytes are the
// first two of the neighbour's int, which the neighbour reads.
__global__ void k(int *out) {
  int v = out[threadIdx.x];
  memcpy((char *)&out[threadIdx.x] + 2, &v, sizeof(int));
}
