// expect: verified
// --blockDim=64 --gridDim=1
// Two labels of one block whose goto ranges overlap (the second label's first goto comes
// before the first label): thread 5 jumps from inside the first range past both labels,
// the others jump to the first label and then past the second store. The two stores to
// out[3 + t] (racing with the last store of thread t + 1, whichever thread made them) are
// made by none.
__global__ void two_labels(int *out, int *own) {
  unsigned t = threadIdx.x;
  if (t != 5)
    goto first;
  if (t == 5)
    goto second;
  out[3 + t] = t;
first:
  own[t] = 1;
  if (t != 5)
    goto second;
  out[3 + t] = t;
second:
  out[2 + t] = t;
}
