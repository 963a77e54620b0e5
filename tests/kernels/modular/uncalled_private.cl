// No kernel calls `fill`; its pointer points to private memory (OpenCL C 1.2's default), which
// no other work-item can reach: checked on its own it is race-free.
void fill(int *p, int n) {
  for (int i = 0; i < n; i++) {
    p[i] = i;
  }
}

__kernel void foo(__global int *out) {
  out[get_global_id(0)] = 0;
}
