// No kernel calls `number`. Checked on its own it is called by work-items that may pass
// different pointers into one work-group array: `dst + 1` in one, `dst` in the other, and the
// strided writes overlap.
void number(__local int *dst) {
  int i = get_local_id(0);
  while (i < 1024) {
    dst[i] = i;
    i += get_local_size(0);
  }
}

__kernel void foo(__global int *out) {
  out[get_global_id(0)] = 0;
}
