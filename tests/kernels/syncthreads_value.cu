// __syncthreads_count/_or/_and are block barriers: the reads of neighbours' s[] after them are
// ordered after the writes before them (racy if they were plain calls).
#include <cuda.h>
__global__ void k(int *a, int *out) {
    __shared__ int s[64];
    unsigned t = threadIdx.x;
    s[t] = a[t];
    int c = __syncthreads_count(s[t] > 0);
    out[t] = s[63 - t] + c;
    int any = __syncthreads_or(t == 3);
    s[t] = any;
    int all = __syncthreads_and(t < 100);
    out[t] += s[(t + 1) % 64] + all;
}
