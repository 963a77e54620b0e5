// expect: inconclusive
// --blockDim=64 --gridDim=4
// Every thread of block 0 raises the one flag word: a consumer that sees it raised may have
// seen the write of a thread other than the one whose data it reads. Message passing needs one
// write per flag word; gpug cannot decide the race on `data` and says why (never "verified").
__device__ int flag[1];

__global__ void two_writers(int *data, int *out) {
    unsigned i = threadIdx.x;
    if (blockIdx.x == 0) {
        data[i] = 1;
        __threadfence();
        atomicExch(&flag[0], 1);
    } else {
        while (atomicAdd(&flag[0], 0) == 0) {
        }
        __threadfence();
        out[blockIdx.x * blockDim.x + i] = data[i];
    }
}
