// expect: race on buf
// --blockDim=64 --gridDim=1
// Each thread rounds the address of its own byte down to the 4-byte word that holds it and
// stores its index there: the four threads whose bytes share a word write the same word.
#include <stdint.h>

__global__ void aligned_word_race(char *buf) {
  uintptr_t v = reinterpret_cast<uintptr_t>(buf + threadIdx.x);
  int *w = reinterpret_cast<int *>(v & ~uintptr_t(3));
  *w = threadIdx.x;
}
