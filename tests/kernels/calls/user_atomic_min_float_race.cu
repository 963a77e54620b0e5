// expect: race
// --blockDim=64 --gridDim=4
// CUDA has no `atomicMin(float *, float)`: this program defines its own, and its body is a
// plain read and a plain write, not an atomic. A call to it is the program's function, lowered
// from its body, never CUDA's integer atomic of the same name (issue 53, item 1): every thread
// reads and writes `*m` unordered, a race between blocks.
__device__ float atomicMin(float *addr, float value) {
    float old = *addr;
    if (value < old) {
        *addr = value;
    }
    return old;
}

__global__ void min_reduce(const float *in, float *m) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicMin(m, in[i]);
}
