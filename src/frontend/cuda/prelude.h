/* gpug prelude: force-included before every kernel file (see src/frontend/mod.rs). */
#ifndef __GPUG_PRELUDE_H
#define __GPUG_PRELUDE_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict
#define __inline__ inline
#define __CUDACC__ 1
#define __GPUG__ 1
#ifndef NULL
#define NULL 0
#endif

#include "__clang_cuda_builtin_vars.h"

typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char uchar;
typedef unsigned long ulong;
typedef unsigned long size_t;

struct uint3 { unsigned int x, y, z; };
struct dim3 { unsigned int x, y, z; };
struct int2 { int x, y; };
struct int4 { int x, y, z, w; };
struct uint2 { unsigned int x, y; };
struct uint4 { unsigned int x, y, z, w; };
struct float2 { float x, y; };
struct float4 { float x, y, z, w; };

/* Synchronisation. */
__device__ void __syncthreads(void);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);

/* Atomics. */
#define __GPUG_ATOMIC2(NAME, T) __device__ T NAME(T *address, T val);
__GPUG_ATOMIC2(atomicAdd, int)
__GPUG_ATOMIC2(atomicAdd, unsigned int)
__GPUG_ATOMIC2(atomicAdd, unsigned long long)
__GPUG_ATOMIC2(atomicAdd, float)
__GPUG_ATOMIC2(atomicAdd, double)
__GPUG_ATOMIC2(atomicSub, int)
__GPUG_ATOMIC2(atomicSub, unsigned int)
__GPUG_ATOMIC2(atomicExch, int)
__GPUG_ATOMIC2(atomicExch, unsigned int)
__GPUG_ATOMIC2(atomicExch, unsigned long long)
__GPUG_ATOMIC2(atomicExch, float)
__GPUG_ATOMIC2(atomicMin, int)
__GPUG_ATOMIC2(atomicMin, unsigned int)
__GPUG_ATOMIC2(atomicMin, unsigned long long)
__GPUG_ATOMIC2(atomicMax, int)
__GPUG_ATOMIC2(atomicMax, unsigned int)
__GPUG_ATOMIC2(atomicMax, unsigned long long)
__GPUG_ATOMIC2(atomicInc, unsigned int)
__GPUG_ATOMIC2(atomicDec, unsigned int)
__GPUG_ATOMIC2(atomicAnd, int)
__GPUG_ATOMIC2(atomicAnd, unsigned int)
__GPUG_ATOMIC2(atomicAnd, unsigned long long)
__GPUG_ATOMIC2(atomicOr, int)
__GPUG_ATOMIC2(atomicOr, unsigned int)
__GPUG_ATOMIC2(atomicOr, unsigned long long)
__GPUG_ATOMIC2(atomicXor, int)
__GPUG_ATOMIC2(atomicXor, unsigned int)
__GPUG_ATOMIC2(atomicXor, unsigned long long)
#undef __GPUG_ATOMIC2
__device__ int atomicCAS(int *address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int *address, unsigned int compare, unsigned int val);
__device__ unsigned long long atomicCAS(unsigned long long *address, unsigned long long compare,
                                        unsigned long long val);

/* Integer helpers (lowered to integer expressions). */
__device__ int min(int a, int b);
__device__ unsigned int min(unsigned int a, unsigned int b);
__device__ long long min(long long a, long long b);
__device__ unsigned long long min(unsigned long long a, unsigned long long b);
__device__ int max(int a, int b);
__device__ unsigned int max(unsigned int a, unsigned int b);
__device__ long long max(long long a, long long b);
__device__ unsigned long long max(unsigned long long a, unsigned long long b);
__device__ int abs(int a);
__device__ long long llabs(long long a);
__device__ int __mul24(int a, int b);
__device__ unsigned int __umul24(unsigned int a, unsigned int b);
__device__ float min(float a, float b);
__device__ float max(float a, float b);

/* Float math (opaque functions). */
#define __GPUG_F1(NAME) __device__ float NAME(float x);
#define __GPUG_D1(NAME) __device__ double NAME(double x);
__GPUG_F1(sqrtf) __GPUG_F1(expf) __GPUG_F1(exp2f) __GPUG_F1(logf) __GPUG_F1(log2f)
__GPUG_F1(log10f) __GPUG_F1(fabsf) __GPUG_F1(sinf) __GPUG_F1(cosf) __GPUG_F1(tanf)
__GPUG_F1(floorf) __GPUG_F1(ceilf) __GPUG_F1(rsqrtf) __GPUG_F1(truncf) __GPUG_F1(roundf)
__GPUG_F1(__expf) __GPUG_F1(__logf) __GPUG_F1(__sinf) __GPUG_F1(__cosf) __GPUG_F1(tanhf)
__GPUG_F1(atanf) __GPUG_F1(asinf) __GPUG_F1(acosf) __GPUG_F1(__saturatef)
__GPUG_D1(sqrt) __GPUG_D1(exp) __GPUG_D1(log) __GPUG_D1(fabs) __GPUG_D1(sin) __GPUG_D1(cos)
__GPUG_D1(floor) __GPUG_D1(ceil) __GPUG_D1(rsqrt) __GPUG_D1(tanh) __GPUG_D1(log2)
__GPUG_D1(exp2) __GPUG_D1(trunc) __GPUG_D1(round)
#undef __GPUG_F1
#undef __GPUG_D1
__device__ float fminf(float a, float b);
__device__ float fmaxf(float a, float b);
__device__ float powf(float a, float b);
__device__ float atan2f(float a, float b);
__device__ float fmodf(float a, float b);
__device__ float __fdividef(float a, float b);
__device__ float __fmul_rn(float a, float b);
__device__ float __fadd_rn(float a, float b);
__device__ float fmaf(float a, float b, float c);
__device__ double fmin(double a, double b);
__device__ double fmax(double a, double b);
__device__ double pow(double a, double b);
__device__ double fma(double a, double b, double c);
__device__ double fmod(double a, double b);
__device__ double atan2(double a, double b);
__device__ int __float2int_rn(float x);
__device__ float __int2float_rn(int x);
__device__ int __float_as_int(float x);
__device__ float __int_as_float(int x);

/* printf (ignored). */
extern "C" __device__ int printf(const char *format, ...);

/* GPUVerify annotations. */
__device__ void __assert(bool b);
__device__ void __assume(bool b);
__device__ void __requires(bool b);
__device__ void __ensures(bool b);
__device__ void __global_requires(bool b);
__device__ void __global_ensures(bool b);
__device__ void __invariant(bool b);
__device__ void __global_invariant(bool b);
__device__ void __function_wide_invariant(bool b);
__device__ void __global_assert(bool b);
__device__ bool __implies(bool a, bool b);
__device__ bool __read(const volatile void *p);
__device__ bool __write(const volatile void *p);
__device__ bool __atomic(const volatile void *p);
__device__ bool __no_read(const volatile void *p);
__device__ bool __no_write(const volatile void *p);
__device__ bool __read_implies(const volatile void *p, bool b);
__device__ bool __write_implies(const volatile void *p, bool b);
__device__ unsigned long __read_offset_bytes(const volatile void *p);
__device__ unsigned long __write_offset_bytes(const volatile void *p);
__device__ const volatile void *__ptr_base(const volatile void *p);
__device__ unsigned long __ptr_offset_bytes(const volatile void *p);
__device__ bool __requires_fresh_array(const volatile void *p);
__device__ int __other_int(int x);
__device__ bool __other_bool(bool x);
__device__ bool __uniform_int(int x);
__device__ bool __uniform_bool(bool x);
__device__ bool __distinct_int(int x);
__device__ bool __distinct_bool(bool x);
__device__ bool __all(bool x);
__device__ bool __exclusive(bool x);
__device__ bool __enabled(void);
__device__ bool __same_group(void);
__device__ bool __same_block(void);
__device__ bool __add_noovfl(int a, int b);
__device__ bool __add_noovfl(unsigned int a, unsigned int b);
__device__ int __return_val_int(void);
__device__ bool __return_val_bool(void);
__device__ const volatile void *__return_val_ptr(void);
__device__ int __old_int(int x);
#define __return_val_funptr(T) ((T)__return_val_ptr())
/* `__axiom(e);` at file scope (GPUVerify's spelling) becomes a function returning `e`, which
   gpug assumes on entry to every kernel (src/frontend/lower/annotation.rs). */
#define __GPUG_CAT2(a, b) a##b
#define __GPUG_CAT(a, b) __GPUG_CAT2(a, b)
#define __axiom(e) \
  static __device__ bool __GPUG_CAT(__gpug_axiom_, __COUNTER__)(void) { return (e); }
#define __array_size(p) 0

#endif
