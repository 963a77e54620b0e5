// expect: assertion
// --blockDim=64 --gridDim=4
// The write is logged: `__no_write` after it fails (misc/pass/misc2 in GPUVerify's suite
// asserts it before the write, where it holds).
__global__ void k(volatile int *p) {
  __assert(__no_write(p));
  p[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
  __assert(__no_write(p));
}
