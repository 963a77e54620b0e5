// main calls run through its prototype; the definition comes after main. The launch is read
// with main's value (n = 256 threads, each writing its own element); with n unknown the grid
// could hold more threads than the 256 elements taken modulo.
__global__ void k(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i % 256] = i;
}

void run(float *d, int n);

int main() {
  float *d;
  cudaMalloc(&d, 256 * sizeof(float));
  run(d, 256);
  return 0;
}

void run(float *d, int n) { k<<<1, n>>>(d, n); }
