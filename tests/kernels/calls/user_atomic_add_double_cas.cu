// expect: race (possible)
// --blockDim=64 --gridDim=4
// The pre-sm_60 `atomicAdd(double *, double)` of CUDA's programming guide, in the program's
// own namespace (clang declares CUDA's `atomicAdd(double *, double)` for every architecture,
// so a program cannot redefine it at file scope under clang). The call names `atomicAdd` but
// resolves to the program's function: its body is lowered, not taken for CUDA's atomic (issue
// 53, item 1). Its first read of `*address` is a plain load, which races with another thread's
// `atomicCAS` on the same word by CUDA's memory model (one of the two accesses is not atomic),
// though the CAS loop then retries with the value it sees. Found through the CAS loop's
// abstraction, hence "possible".
namespace compat {
__device__ double atomicAdd(double *address, double val) {
    unsigned long long int *address_as_ull = (unsigned long long int *)address;
    unsigned long long int old = *address_as_ull, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_ull, assumed,
                        __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}
} // namespace compat

__global__ void sum(const double *in, double *total) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    compat::atomicAdd(total, in[i]);
}
