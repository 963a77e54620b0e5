// y = 2x in floats, asserted equal to x + x (exact in IEEE 754 unless x is NaN).
// gpug check float_scale.cu --blockDim=4 --gridDim=1                 inconclusive (opaque floats)
// gpug check float_scale.cu --blockDim=4 --gridDim=1 --float ieee    all assertions hold (z3, cvc5)
#include <assert.h>

__global__ void float_scale(const float *x, float *y) {
    unsigned i = threadIdx.x;
    float v = x[i];
    y[i] = 2.0f * v;
    assert(v != v || y[i] == v + v);
}
