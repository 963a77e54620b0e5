// A work-group copy read before its wait races with the copy; after the wait and a barrier it
// does not (OpenCL 1.2 section 6.12.10).
#define N 64
__kernel void stage(__global const float *in, __global float *out) {
  __local float tile[N];
  event_t e = async_work_group_copy(tile, in + N * get_group_id(0), N, 0);
#ifdef EARLY_READ
  out[get_global_id(0)] = tile[get_local_id(0)];
#endif
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = 2 * tile[get_local_id(0)];
}
