// expect: race (possible)
// --blockDim=64 --gridDim=1
// `pick` has no body: it may map two threads to one index, so the race is possible.
__device__ int pick(int i);

__global__ void k(int *a) {
  a[pick(threadIdx.x)] = threadIdx.x;
}
