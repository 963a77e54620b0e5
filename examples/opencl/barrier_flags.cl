// expect: race
// --local_size=64 --num_groups=1
// expect: verified
// --local_size=64 --num_groups=1 -DGLOBAL_FENCE
//
// A barrier orders only the memory its fence flags name (OpenCL 1.2 section 6.12.8, as
// GPUVerify models it): `barrier(CLK_LOCAL_MEM_FENCE)` leaves the accesses to the global
// array `p` unordered, so work-item t's write of p[t] races with work-item t + 1's write of
// p[t] after the barrier; `CLK_GLOBAL_MEM_FENCE` orders them.

__kernel void shift(__global int *p) {
  unsigned lid = get_local_id(0);
  p[lid] = lid;
#ifdef GLOBAL_FENCE
  barrier(CLK_GLOBAL_MEM_FENCE);
#else
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  if (lid > 0) {
    p[lid - 1] = 2 * lid;
  }
}
