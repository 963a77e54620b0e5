// A possible race that a launch contract verifies again on the same prepared kernel.
//--launch host
// The kernel of rests_on_first_loop.cu, launched by main with a grid and a trip count read
// from the command line: its possible race (the loop at line 12 leaves `k` arbitrary) is
// verified again under the no-wrap bound of the x dimension, with y and z 1 at the launch, so
// the closed forms the verification accepted are not checked again there.
#include <cstdlib>

__global__ void rests_on_first_loop(int *a, int *b, int n)
{
    int k = threadIdx.x;
    for (int i = 0; i < n; i++)
        k = k * 3 + 1;
    a[k] = threadIdx.x;
    int s = 0;
    for (int j = 0; j < n; j++)
        s += j;
    b[threadIdx.x] = s;
}

int main(int argc, char **argv)
{
    int blocks = atoi(argv[1]);
    int n = atoi(argv[2]);
    int *a, *b;
    cudaMalloc(&a, 1 << 20);
    cudaMalloc(&b, 1 << 20);
    rests_on_first_loop<<<blocks, 64>>>(a, b, n);
    cudaDeviceSynchronize();
    return 0;
}
