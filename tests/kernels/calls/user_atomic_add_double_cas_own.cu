// expect: verified
// --blockDim=64 --gridDim=4
// The program-defined `atomicAdd(double *, double)` of `user_atomic_add_double_cas.cu`
// (lowered from its body: a plain load and an `atomicCAS` loop), each thread adding into its
// own element: no two threads touch one word, so there is no race.
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

__global__ void accumulate(const double *in, double *acc) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    compat::atomicAdd(&acc[i], in[i]);
}
