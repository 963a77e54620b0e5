// expect: race
// --local_size=64 --num_groups=4
// expect: verified
// --local_size=64 --num_groups=1
//
// An inter-group race on global memory: every work-group writes its id to the same 64 words
// (indexed by the local id). No barrier orders work-items of different work-groups; with one
// work-group there is no race.

__kernel void group_ids(__global int *out) {
  out[get_local_id(0)] = get_group_id(0);
}
