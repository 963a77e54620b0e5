// expect: verified
// --blockDim=256 --gridDim=16
// expect: race
// --blockDim=256 --gridDim=16 -DMISPLACED
#include <cuda.h>

// A block sum whose last 64 elements are reduced by warp 0 alone, ordered by __syncwarp()
// instead of __syncthreads() (issue 12): since Volta the lanes of a warp do not run in lock
// step, so each step reads, synchronises the warp, writes, and synchronises again. With
// -DMISPLACED the __syncwarp sits between steps only, not between one step's read of
// s[t + o] and lane t + o's write of it: a race inside the warp, which compute-sanitizer's
// racecheck reports on an H100 too.
__global__ void reduce_warp(const int *in, int *out) {
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned o = blockDim.x / 2; o > 32; o >>= 1) {
        if (t < o) {
            s[t] += s[t + o];
        }
        __syncthreads();
    }
    if (t < 32) {
        int v = s[t] + s[t + 32];
        for (unsigned o = 16; o > 0; o >>= 1) {
#ifdef MISPLACED
            s[t] = v;
            v += s[t + o];
            __syncwarp();
#else
            s[t] = v;
            __syncwarp();
            v += s[t + o];
            __syncwarp();
#endif
        }
        if (t == 0) {
            out[blockIdx.x] = v;
        }
    }
}
