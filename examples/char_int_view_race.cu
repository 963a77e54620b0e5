// expect: race
// --blockDim=64 --gridDim=1
#include <cuda.h>

// One shared buffer seen as ints and as bytes. Thread t writes bytes 4t..4t+3
// through the int view and byte t through the char view, so e.g. thread 1's int
// store (bytes 4..7) and thread 5's char store (byte 5) overlap.
__global__ void char_int_view_race(int *out) {
    __shared__ int words[64];
    char *bytes = (char *)words;
    unsigned t = threadIdx.x;
    words[t] = 0;
    bytes[t] = (char)t;
    __syncthreads();
    out[t] = words[t];
}
