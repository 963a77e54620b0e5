// expect: race on slot
// --blockDim=64 --gridDim=1
// Every thread jumps over its own store, but the labelled statement itself still runs: the
// store to slot[0] after the label is made by every thread.
__global__ void label_runs(int *slot, int *own) {
  unsigned t = threadIdx.x;
  for (int i = 0; i < 4; i++) {
    if (t < 1024)
      goto done;
    own[t] = i;
  }
done:
  slot[0] = t;
}
