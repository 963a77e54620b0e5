// expect: race on slot
// --blockDim=64 --gridDim=1
// As skip_racy.cu, but the inner loop may also end by its condition: a thread that finds no
// match goes on to the store to slot[0], which every such thread makes.
__global__ void no_skip_race(int *slot, int *own, const int *in, int n) {
  unsigned t = threadIdx.x;
  while (true) {
    for (int j = 0; j < n; j++) {
      if (in[j] == (int)t)
        goto out;
      own[t] = j;
    }
    slot[0] = t;
    break;
  }
out:
  own[t] = -1;
}
