// Host harness for examples/barrier_invariants on a real GPU (scripts/gpu/check-scans.sh):
// runs one scan kernel, named by -DKERNEL and included with -include, on one block of
// `threads` threads over random inputs, and compares its output with the prefix sums
// computed on the host. Prints "<kernel> <threads>: <mismatches> mismatches of <n>".
//   -DINCLUSIVE     the kernel computes inclusive sums (Kogge-Stone, Brent-Kung)
//   -DPER_THREAD=k  elements per thread (1 Kogge-Stone, 2 Blelloch and Brent-Kung)
//   -DABSTRACT      the kernel computes summation ranges (scan.h): element i must be
//                   [0, i + 1) (inclusive) or [0, i) (exclusive), packed lo << 16 | end
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 256;
  int n = threads * PER_THREAD;
  std::vector<unsigned> in(n), out(n, 0xdeadbeefu);
  srand(1);
  for (int i = 0; i < n; i++) in[i] = rand() % 1000;
  unsigned *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(unsigned));
  cudaMalloc(&d_out, n * sizeof(unsigned));
  cudaMemcpy(d_in, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(d_out, out.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  KERNEL<<<1, threads>>>(d_in, d_out);
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaMemcpy(out.data(), d_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    printf("%s %d: CUDA error: %s\n", argv[0], threads, cudaGetErrorString(e));
    return 2;
  }
  int bad = 0;
  unsigned sum = 0;
  for (int i = 0; i < n; i++) {
#ifdef ABSTRACT
#ifdef INCLUSIVE
    unsigned want = (unsigned)(i + 1);
#else
    unsigned want = (unsigned)i;
#endif
#else
#ifdef INCLUSIVE
    sum += in[i];
    unsigned want = sum;
#else
    unsigned want = sum;
    sum += in[i];
#endif
#endif
    if (out[i] != want) {
      if (bad < 3) printf("  element %d: %u, want %u\n", i, out[i], want);
      bad++;
    }
  }
  printf("%s %d: %d mismatches of %d\n", argv[0], threads, bad, n);
  return bad != 0;
}
