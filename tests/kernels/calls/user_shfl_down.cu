// expect: verified
// --blockDim=32 --gridDim=1
// The emulated `__shfl_down` of `user_shfl_down_race.cu` with the warp barriers it needs: a
// `__syncwarp()` orders each lane's store before the other lanes' loads, and one before the
// store orders the previous call's loads before it. The program's body is lowered, not CUDA's
// intrinsic.
__device__ float __shfl_down(float v, int delta) {
    __shared__ float lanes[32];
    unsigned lane = threadIdx.x % 32;
    __syncwarp();
    lanes[lane] = v;
    __syncwarp();
    return lanes[(lane + delta) % 32];
}

__global__ void warp_sum(const float *in, float *out) {
    float v = in[threadIdx.x];
    v += __shfl_down(v, 16);
    v += __shfl_down(v, 8);
    if (threadIdx.x == 0) {
        out[0] = v;
    }
}
