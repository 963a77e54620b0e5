// expect: race
// --blockDim=256 --gridDim=1
// popc(t) is the same for t = 1 and t = 2: a real race, found exactly (not "possible").
__global__ void k(int *a) {
  a[__popc(threadIdx.x)] = threadIdx.x;
}
