// expect: verified
// --blockDim=32 --gridDim=1 --warp-sync=32
// A warp runs the two sides of a branch one after the other: odd lanes write their element,
// even lanes read an odd lane's element, never at one statement.
__global__ void odd_even(int *a, int *out) {
  unsigned t = threadIdx.x;
  if (t % 2 == 1)
    a[t] = 1;
  else
    out[t] = a[t + 1];
}
