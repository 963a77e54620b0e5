// expect: verified
// --blockDim=64 --gridDim=1
// Each thread owns the slot `p` of `s`, which moves by half the array every iteration
// (`& 127`: not a closed form, so gpug havocs `p` at the loop head). The relational invariant
// `p != __other_int(p)` (with the range of `p`) says two threads at the same iteration own
// different slots, which makes the loop race-free.
__global__ void slots(int *out, int n) {
  __shared__ int s[128];
  unsigned p = threadIdx.x;
  for (int it = 0;
       __invariant(p < 128),
       __invariant(p != __other_int(p)),
       it < n; it++) {
    s[p] = it;
    __syncthreads();
    out[threadIdx.x] = s[p];
    __syncthreads();
    p = (p + 64) & 127;
  }
}
