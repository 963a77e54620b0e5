// expect: divergence
// --blockDim=128 --gridDim=1
// A block reduction that only some threads of the block reach: CUB's BlockReduce has
// barriers inside, so every thread of the block must call it.
#include <cub/block/block_reduce.cuh>

__global__ void partial(const int *in, int *out) {
    using BlockReduce = cub::BlockReduce<int, 128>;
    __shared__ typename BlockReduce::TempStorage temp;
    int v = in[threadIdx.x];
    if (v > 0) {
        int sum = BlockReduce(temp).Sum(v);
        if (threadIdx.x == 0)
            out[0] = sum;
    }
}
