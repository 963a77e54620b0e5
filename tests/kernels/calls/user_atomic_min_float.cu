// expect: verified
// --blockDim=64 --gridDim=4
// The race-free `atomicMin(float *, float)` of many programs: a non-negative float orders as
// its bits read as a signed int, a negative one in reverse as unsigned, so one of CUDA's
// integer atomics does the job. The body is the program's (lowered from it), and each call in
// it resolves to CUDA's own integer `atomicMin`/`atomicMax`: atomics of the whole grid.
__device__ float atomicMin(float *addr, float value) {
    return value >= 0.0f ? __int_as_float(atomicMin((int *)addr, __float_as_int(value)))
                         : __uint_as_float(atomicMax((unsigned int *)addr, __float_as_uint(value)));
}

__global__ void min_reduce(const float *in, float *m) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicMin(m, in[i]);
}
