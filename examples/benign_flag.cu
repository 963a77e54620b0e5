// expect: verified
// --blockDim=64 --gridDim=4
// expect: race
// --blockDim=64 --gridDim=4 --no-benign
// expect: race
// --blockDim=64 --gridDim=4 --strict
#include <cuda.h>

// A benign write-write race (GPUVerify's default): every thread of the grid sets the flag, all
// with the same value, so whichever write lands last the flag is 1. gpug lists the race as a
// note and verifies the kernel; --no-benign (GPUVerify's spelling) or --strict reports it as a
// race. Compare write_write_race.cu, whose threads write different values.
__global__ void scale_and_flag(int *flag, float *out, const float *in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i];
    flag[0] = 1;
}
