// expect: verified
// --blockDim=32 --gridDim=256 --kernel-args N=8192,C=50257
// llm.c's softmax_forward_kernel1 at the launch its main makes: a thread per row of C = 50257
// floats, three loops over the row. The race query compares `out + i*C` indexed by `j` between
// two rows: with C a literal (the launch's value) the row-major lemma gives equal rows, which
// yices could not refute by bit blasting in 60 s.
#include <math.h>
__global__ void softmax_forward_kernel1(float *out, const float *inp, int N, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    const float *inp_row = inp + i * C;
    float *out_row = out + i * C;
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
