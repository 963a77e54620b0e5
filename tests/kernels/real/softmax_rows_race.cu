// expect: race on out
// --blockDim=32 --gridDim=256 --kernel-args N=8192,C=50257
// As softmax_rows.cu with each row starting one element too early (i * C - i): the last
// element of one row is the first of the next, a race.
#include <math.h>
__global__ void softmax_forward_kernel1(float *out, const float *inp, int N, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    const float *inp_row = inp + i * C;
    float *out_row = out + i * C - i;
    float maxval = -INFINITY;
    for (int j = 0; j < C; j++) {
      if (inp_row[j] > maxval) {
        maxval = inp_row[j];
      }
    }
    double sum = 0.0;
    for (int j = 0; j < C; j++) {
      out_row[j] = expf(inp_row[j] - maxval);
      sum += out_row[j];
    }
    for (int j = 0; j < C; j++) {
      out_row[j] /= (float)sum;
    }
  }
}
