// expect: assertion
// --blockDim=64 --gridDim=1
// A device function's `__requires` is its precondition: checked at the call (gpug inlines the
// function), then assumed. Assuming it without the check would let every thread but 0 vanish
// and hide the race on `A[0]`.
__device__ void only_thread_zero(int x) {
  __requires(x == 0);
}

__global__ void k(int *A) {
  only_thread_zero(threadIdx.x);
  A[0] = threadIdx.x;
}
