// Work-groups race on p (each group writes p[0..local size)); work-items of one group do not.
__kernel void foo(__global int *p) {
  p[get_local_id(0)] = get_global_id(0);
}
