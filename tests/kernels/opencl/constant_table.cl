// A program-scope __constant table is the initializer's (the host cannot change it): each
// work-item of a group of 4 writes its own slot through the permutation.
__constant int perm[4] = {3, 2, 1, 0};

__kernel void permute(__global int *out) {
  unsigned lid = get_local_id(0);
  out[4 * (lid / 4) + perm[lid % 4]] = lid;
}
