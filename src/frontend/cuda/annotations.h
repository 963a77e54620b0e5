/* gpug: GPUVerify's annotation functions (the `__...` built-ins of GPUVerify's cuda.h), lowered
 * by name by gpug's front end. Included by both preludes: gpug's stub prelude (prelude.h) and
 * the precompiled prelude over NVIDIA's real headers (nvidia_prelude.h). */
#ifndef __GPUG_ANNOTATIONS_H
#define __GPUG_ANNOTATIONS_H

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
__device__ bool __add_noovfl(int a, int b, int c);
__device__ bool __add_noovfl(unsigned int a, unsigned int b, unsigned int c);
__device__ int __add_noovfl_int(int a, int b);
__device__ unsigned int __add_noovfl_unsigned_int(unsigned int a, unsigned int b);
__device__ int __return_val_int(void);
__device__ bool __return_val_bool(void);
__device__ const volatile void *__return_val_ptr(void);
__device__ int __old_int(int x);
__device__ void __candidate_invariant(bool b);
__device__ void __candidate_global_invariant(bool b);
__device__ void __function_wide_candidate_invariant(bool b);
__device__ int __ite(bool c, int a, int b);
__device__ int __mod_pow2(int x, int y);
/* Barrier invariants and `__read_permission` (shared with the OpenCL prelude). */
#define __GPUG_BI_DEV __device__
#define __GPUG_BI_LONG long long
#include "gpug_barrier_invariants.h"
__device__ void __array_snapshot(const volatile void *dst, const volatile void *src);
#define __return_val_funptr(T) ((T)__return_val_ptr())
/* `__axiom(e);` at file scope (GPUVerify's spelling) becomes a function returning `e`, which
   gpug assumes on entry to every kernel (src/frontend/lower/annotation.rs). */
#define __GPUG_CAT2(a, b) a##b
#define __GPUG_CAT(a, b) __GPUG_CAT2(a, b)
#define __axiom(e) \
  static __device__ bool __GPUG_CAT(__gpug_axiom_, __COUNTER__)(void) { return (e); }
#define __array_size(p) 0


#endif
