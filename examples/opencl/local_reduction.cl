// expect: verified
// --local_size=128 --num_groups=8
// expect: race
// --local_size=128 --num_groups=8 -DNO_BARRIER
//
// Tree reduction in local memory: each work-group sums its 128 inputs and work-item 0 writes
// the group's sum. Without the barrier in the loop, a work-item reads sdata[lid + s] while
// another work-item may still be writing it in the previous step.

#define N 128

__kernel void reduce(__global const float *in, __global float *out) {
  __local float sdata[N];
  unsigned lid = get_local_id(0);
  sdata[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned s = N / 2; s > 0; s >>= 1) {
    if (lid < s) {
      sdata[lid] += sdata[lid + s];
    }
#ifndef NO_BARRIER
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
  }
  if (lid == 0) {
    out[get_group_id(0)] = sdata[0];
  }
}
