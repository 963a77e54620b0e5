// Globals as a program's settings: `width` is never written, so every launch has its
// initializer's 512 (rows of 512 for 256 threads: disjoint); `pitch` is written by
// set_pitch from the command line, so draw_pitched's launch has it unknown, and a pitch
// below 256 makes the rows overlap: a race the program can make.
#include <cstdlib>

unsigned int width = 512;
int pitch = 512;

__global__ void row(float *d, int w) { d[blockIdx.x * w + threadIdx.x] = threadIdx.x; }

void draw(float *d) { row<<<4, 256>>>(d, width); }
void draw_pitched(float *d) { row<<<4, 256>>>(d, pitch); }
void set_pitch(int p) { pitch = p; }

int main(int argc, char **argv) {
  float *d;
  cudaMalloc(&d, 4 * 512 * sizeof(float));
  draw(d);
  if (argc > 1) set_pitch(atoi(argv[1]));
  draw_pitched(d);
  return 0;
}
