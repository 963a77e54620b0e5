// A race whose witness needs the factors of a 64-bit semiprime: the solver will not answer
// within a second, so `--timeout 1` must end the run with exit 3 (inconclusive).
#include <cuda.h>

__global__ void factor(unsigned long long x, unsigned long long y, int *out) {
    __shared__ int s[64];
    if (x * y == 0x84ffefecf751fbb1ULL && x > 1 && y > 1 && x < 0x100000000ULL && y < 0x100000000ULL) {
        s[0] = threadIdx.x;
    }
    out[threadIdx.x] = 0;
}
