// expect: verified
// --blockDim=128 --gridDim=2
// The fixed form of block_reduce_reuse_race.cu: a __syncthreads() before the TempStorage is
// reused, as CUB's documentation asks; the collective held in a local the second time.
#include <cub/block/block_reduce.cuh>

__global__ void sum_and_max(const int *in, int *out) {
    using BlockReduce = cub::BlockReduce<int, 128>;
    __shared__ typename BlockReduce::TempStorage temp;
    int v = in[blockIdx.x * 128 + threadIdx.x];
    int sum = BlockReduce(temp).Sum(v);
    __syncthreads();
    BlockReduce reduce(temp);
    int max = reduce.Reduce(v, cub::Max());
    if (threadIdx.x == 0) {
        out[2 * blockIdx.x] = sum;
        out[2 * blockIdx.x + 1] = max;
    }
}
