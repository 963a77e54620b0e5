// expect: race on params[*]
// --blockDim=64 --gridDim=4
// As loaded_pointer.cu, but thread i writes element i + 1 of `params->y`, which thread i + 1
// reads through the struct's copy.
struct Args {
  float *x;
  int n;
  float *y;
};

__global__ void saxpy(const Args *params) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Args local = *params;
  float *y = params->y;
  y[i + 1] = 1.0f;
  y[i] = local.y[i];
}
