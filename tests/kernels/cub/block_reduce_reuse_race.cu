// expect: race on temp
// --blockDim=128 --gridDim=2
// cub::BlockReduce's TempStorage reused by a second reduction without a __syncthreads()
// between them: CUB documents that a barrier must come before the storage is reused (the
// second call's writes race with the first call's reads of the warps' partial results).
#include <cub/block/block_reduce.cuh>

__global__ void sum_and_max(const int *in, int *out) {
    using BlockReduce = cub::BlockReduce<int, 128>;
    __shared__ typename BlockReduce::TempStorage temp;
    int v = in[blockIdx.x * 128 + threadIdx.x];
    int sum = BlockReduce(temp).Sum(v);
    int max = BlockReduce(temp).Reduce(v, cub::Max());
    if (threadIdx.x == 0) {
        out[2 * blockIdx.x] = sum;
        out[2 * blockIdx.x + 1] = max;
    }
}
