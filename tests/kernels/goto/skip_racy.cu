// expect: verified
// --blockDim=64 --gridDim=1
// A goto leaves two nested loops forward to a label after them. The stores to slot[] between
// the goto and the label (every thread writes the same element: a race) are never reached:
// both loops end only by the goto.
__global__ void skip_racy(int *slot, int *own, const int *in) {
  unsigned t = threadIdx.x;
  while (true) {
    for (int j = 0;; j++) {
      if (in[j] == (int)t || j >= 8)
        goto out;
      own[t] = j;
    }
    slot[0] = t;
  }
  slot[1] = t;
out:
  own[t] = -1;
}
