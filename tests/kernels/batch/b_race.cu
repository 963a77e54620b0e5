//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1 -DSHIFT=1
// Each thread reads its neighbour's element, which the neighbour writes: a race, with the
// shift given by the header's -D.
__global__ void shift(int *a) {
  int v = a[threadIdx.x + SHIFT];
  a[threadIdx.x] = v;
}
