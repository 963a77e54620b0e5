// A scalar parameter in an assertion: symbolic unless --kernel-args or --assume fixes it.
#include <assert.h>

__global__ void check_param(int *out, int n) {
    out[threadIdx.x] = n;
    assert(n <= 3);
}
