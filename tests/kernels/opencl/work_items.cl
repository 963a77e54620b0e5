// Every work-item function, checked against the launch: 2 dimensions, a global offset.
__kernel void ids(__global int *out) {
  __assert(get_work_dim() == 2);
  __assert(get_global_size(0) == get_num_groups(0) * get_local_size(0));
  __assert(get_global_id(0) == get_group_id(0) * get_local_size(0) + get_local_id(0) + get_global_offset(0));
  __assert(get_global_offset(0) == 8);
  __assert(get_global_offset(1) == 0);
  __assert(get_local_size(2) == 1);
  out[get_global_id(1) * get_global_size(0) + get_global_id(0) - 8] = 1;
}
