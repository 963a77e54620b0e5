// A loop whose trip count is a parameter: the concrete model needs --unroll N (bounded).
#include <assert.h>

__global__ void check_loop(int *out, int n) {
    int acc = 0;
    for (int i = 0; i < n; i++) acc += 1;
    out[threadIdx.x] = acc;
    assert(acc <= 3);
}
