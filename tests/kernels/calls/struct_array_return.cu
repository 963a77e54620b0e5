// expect: holds
// --blockDim=32 --gridDim=1
// `gpug check`: a struct whose member is an array, returned by value (llm.c's `Packed128`
// from `load128`): the caller reads the result after the callee's `return`, so it sees what
// the callee stored. Read inside the callee's block, after its `return`, the result was never
// read and stayed arbitrary.
#include <assert.h>

struct Pair {
  int v[2];
};

__device__ Pair make(int a) {
  Pair p;
  p.v[0] = a;
  p.v[1] = a + 1;
  return p;
}

__global__ void k(int *out) {
  Pair p = make(threadIdx.x);
  assert(p.v[0] == (int)threadIdx.x && p.v[1] == (int)threadIdx.x + 1);
  out[threadIdx.x] = p.v[1];
}
