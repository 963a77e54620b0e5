// expect: unsupported at 6:21
// --blockDim=64 --gridDim=1
// A computed goto (`&&label`, `goto *p`): out of reach, named at the label's address.
__global__ void computed(int *a) {
  void *p;
  p = threadIdx.x ? &&one : &&two;
  goto *p;
one:
  a[threadIdx.x] = 1;
two:
  a[threadIdx.x] += 2;
}
