// A grid computed from a host value gpug cannot know (read from the command line) but whose
// C type bounds it: `nb` is an `unsigned char`, so the grid has at most 256 blocks, and the
// index below never wraps (256 * 256 * 65536 = 2^32). Without that bound the race between
// threads 2^16 apart would be listed apart as an index computed past its type.
#include <cstdlib>

__global__ void spread(unsigned *a) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i * 65536u] = i;
}

int main(int argc, char **argv) {
    unsigned char nb = (unsigned char)atoi(argv[1]);
    unsigned *a;
    cudaMalloc(&a, sizeof(unsigned) << 32);
    spread<<<nb + 1, 256>>>(a);
    cudaDeviceSynchronize();
    return 0;
}
