// expect: verified
// --blockDim=256 --gridDim=64
// cuRAND's state copied to registers and drawn from through a reference (NVIDIA's
// MC_EstimatePiInlineP): the thread's own, so the draws touch no memory.
#include <curand_kernel.h>
__device__ void point(float &x, float &y, curandState &state) {
  x = curand_uniform(&state);
  y = curand_uniform(&state);
}
__global__ void estimate(unsigned *hits, curandState *states) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[tid];
  float x, y;
  point(x, y, local);
  hits[tid] = (x * x + y * y < 1.0f) ? 1u : 0u;
  states[tid] = local;
}
