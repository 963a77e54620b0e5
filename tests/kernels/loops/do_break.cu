// expect: verified
// --blockDim=32 --gridDim=2
#include <cuda.h>
__global__ void do_break(const int *in, int *out) {
    int i = 0;
    do {
        if (in[i] < 0) break;
        out[(blockIdx.x * 8 + i) * 32 + threadIdx.x] = in[i];
        i++;
    } while (i < 8);
}
