// expect: race on out
// --blockDim=64 --gridDim=4
// Every thread writes `out[0]` when `bias` is null: a launch may pass a null `bias`, so the
// branch is not assumed away and the race is found (with `bias$null = true`).
__global__ void add_bias(float *out, const float *bias) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (bias != nullptr) {
    out[i] = bias[i];
  } else {
    out[0] = (float)i;
  }
}
