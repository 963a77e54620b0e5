// expect: race
// --blockDim=32 --gridDim=1
// A program's own `__shfl_down` (an emulation through shared memory, as written for GPUs
// without shuffles), not CUDA's legacy intrinsic of the same name: its body is lowered (issue
// 53, item 1). Without a `__syncwarp()` between a lane's store and another lane's load, the
// lanes race on `lanes`.
__device__ float __shfl_down(float v, int delta) {
    __shared__ float lanes[32];
    unsigned lane = threadIdx.x % 32;
    lanes[lane] = v;
    return lanes[(lane + delta) % 32];
}

__global__ void warp_sum(const float *in, float *out) {
    float v = in[threadIdx.x];
    v += __shfl_down(v, 16);
    if (threadIdx.x == 0) {
        out[0] = v;
    }
}
