// The host side of filter.cu's program: `display` is a callback that a windowing library
// (declared only) calls; main never calls it itself.
extern "C" void run_filter(float *out, const float *in, int n);
void register_display(void (*f)());

static float *d_out, *d_in;

static void display() { run_filter(d_out, d_in, 4096); }

int main() {
  register_display(display);
  return 0;
}
