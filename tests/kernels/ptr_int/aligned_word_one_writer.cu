// expect: verified
// --blockDim=64 --gridDim=1
// The fixed form of aligned_word_race.cu: only the thread whose byte starts a word writes it.
// Which thread that is depends on `buf`'s address (any byte), the same for every thread, so
// two writers are always four bytes apart.
#include <stdint.h>

__global__ void aligned_word_one_writer(char *buf) {
  uintptr_t v = reinterpret_cast<uintptr_t>(buf + threadIdx.x);
  int *w = reinterpret_cast<int *>(v & ~uintptr_t(3));
  if ((v & 3) == 0) {
    *w = threadIdx.x;
  }
}
