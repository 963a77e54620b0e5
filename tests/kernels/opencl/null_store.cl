// A store through a pointer that is null for one work-group.
__kernel void maybe_null(__global int *p) {
  __global int *q = p;
  if (get_group_id(0) == 1) {
    q = 0;
  }
  q[get_global_id(0)] = 1;
}
