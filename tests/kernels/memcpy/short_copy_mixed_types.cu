// expect: verified
// --blockDim=64 --gridDim=1
// Five of the eight bytes of each element, from an array of another element type: the bytes
// [0, 5) of the thread's own element only.
struct wide { int x; int y; };

__global__ void k(const unsigned char *in, wide *out) {
  size_t len = 5;
  memcpy(&out[threadIdx.x], in + 8 * threadIdx.x, len);
}
