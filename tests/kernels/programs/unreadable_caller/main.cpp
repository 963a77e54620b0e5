// main.cpp of tiles.cu's program, which clang cannot fully read: the second call's width is
// an undeclared name, so clang drops that call, and a launch with that width would be lost.
extern "C" void run_tile(float *out, int width, int rows);

int main() {
  float *out = 0;
  run_tile(out, 256, 16);
  run_tile(out, narrow_width, 16);
  return 0;
}
