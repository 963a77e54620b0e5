// expect: race on slot
// --blockDim=64 --gridDim=1
// A goto out of a switch case to a label after the switch, and one to a label inside its own
// case: threads with t % 4 == 1 jump over their own store, those with t % 4 == 2 reach slot[0].
__global__ void switch_out(int *slot, int *own) {
  unsigned t = threadIdx.x;
  switch (t % 4) {
  case 0:
    own[t] = 0;
    break;
  case 1:
    if (t > 0)
      goto after;
    own[t] = 1;
    break;
  case 2:
    if (t > 2)
      goto inner;
    own[t] = 2;
  inner:
    slot[0] = t;
    break;
  default:
    own[t] = 3;
  }
after:
  own[t] += 1;
}
