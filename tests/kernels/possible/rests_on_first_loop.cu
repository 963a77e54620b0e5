// A possible race names the abstraction it rests on (issue 53 item 5).
//--blockDim=64 --gridDim=1
// The store to `a` at line 11 reads `k`, which the loop at line 9 leaves arbitrary at its
// head (`n` is free, so the loop is abstracted); it comes before the loop at line 13, which
// is not named.
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
