// expect: verified
// --blockDim=64 --gridDim=4
// Pointers whose array the AST shows: the pointer fields of a struct passed by value
// (`args.x`) and by pointer (`params->y`, loaded from the launch's memory), a copy of the
// struct, and a local chosen between two places of one array (`c ? a : a + 256`).
struct Args {
  float *x;
  int n;
  float *y;
};

__global__ void saxpy(Args args, const Args *params, float *a, bool c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  args.x[i] = 2.0f * args.x[i];
  const Args local = *params;
  float *y = params->y;
  y[2 * i] = local.y[2 * i + 1];
  local.x[i] = 1.0f;
  float *p = c ? a : a + 256;
  p[i] = 0.0f;
}
