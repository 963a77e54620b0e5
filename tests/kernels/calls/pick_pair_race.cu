// expect: race (possible)
// --blockDim=64 --gridDim=1
// Equal arguments give equal results: threads 2t and 2t+1 call `pick(t)` and both write
// `a[pick(t)]`.
__device__ int pick(unsigned i);

__global__ void k(int *a) {
  a[pick(threadIdx.x / 2)] = 1;
}
