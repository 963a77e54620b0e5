// expect: race
// --blockDim=64 --gridDim=8
#include <cuda.h>

// One float array seen as float4s and as floats. Thread i stores floats
// 4i..4i+3 as one float4 (16 bytes), and reads float 4i+5 through the float
// view: the second float of thread i+1's float4, which thread i+1 writes.
__global__ void float4_view_race(float *a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 *a4 = reinterpret_cast<float4 *>(a);
    float next = a[4 * i + 5];
    a4[i] = make_float4(next, 0.0f, 0.0f, 1.0f);
}
