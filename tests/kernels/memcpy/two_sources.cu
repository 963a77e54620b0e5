// expect: race on out
// --blockDim=32 --gridDim=1
// The source is one of two arrays, chosen per thread; the copy's length of two ints reaches
// the neighbour's slot whichever it is.
__global__ void k(const int *a, const int *b, int *out) {
  const int *src = (threadIdx.x & 1) ? a : b;
  memcpy(&out[threadIdx.x], &src[threadIdx.x], 2 * sizeof(int));
}
