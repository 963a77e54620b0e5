// expect: race
// --local_size=64 --num_groups=1
// expect: verified
// --local_size=64 --num_groups=1 -DIDX_ZERO
//
// The running example of the GPUVerify lecture notes (Donaldson's ENS Lyon lecture 2): the two-thread reduction
// instruments `x = A[tid + idx]` as LOG_READ A(tid$1 + idx$1) / CHECK_READ A(tid$2 + idx$2),
// and the write `A[tid] = x + y` is checked against the logged read. With `idx` unknown,
// work-item t's read of A[t + idx] meets work-item (t + idx)'s write of A[t + idx]; with
// `idx == 0` every work-item touches only its own word.

__kernel void foo(__local int *A, int idx) {
#ifdef IDX_ZERO
  __requires(idx == 0);
#endif
  int tid = get_local_id(0);
  int x = A[tid + idx];
  int y = A[tid];
  A[tid] = x + y;
}
