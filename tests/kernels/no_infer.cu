// `y >= 0` holds in every execution and gpug proves it with the closed form x = i >= 0; it is
// not inductive on its own (nothing says x >= 0), so with --no-infer (no closed forms, only
// the given invariants) it may not be preserved.
__global__ void triangle(int *out) {
  int x = 0;
  int y = 0;
  while (__invariant(y >= 0), __invariant(y <= x * 100), x < 100) {
    y += x;
    x++;
  }
  out[threadIdx.x] = y;
}
