// expect: race on bytes
// --blockDim=64 --gridDim=1
// A `uint8_t` array is an array of single bytes; viewed as 32-bit words, the word at byte
// 4*(t/2) is written by two threads.
#include <stdint.h>
__global__ void overlap(uint8_t *bytes) {
  uint32_t *words = (uint32_t *)bytes;
  words[threadIdx.x / 2] = threadIdx.x;
}
