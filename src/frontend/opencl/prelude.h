/* gpug: force-included before every OpenCL C file, after clang's own OpenCL declarations
 * (opencl-c-base.h and the built-in functions clang declares on use). It declares GPUVerify's
 * annotation functions in their OpenCL spelling (no `__device__`; the ones that take a pointer
 * once per address space), lowered by name by gpug's front end. */
#ifndef __GPUG_OPENCL_PRELUDE_H
#define __GPUG_OPENCL_PRELUDE_H

#define __GPUG__ 1
#define __OPENCL__ 1
#define __GPUG_OV __attribute__((overloadable))

void __assert(bool b);
void __assume(bool b);
void __requires(bool b);
void __ensures(bool b);
void __global_requires(bool b);
void __global_ensures(bool b);
void __invariant(bool b);
void __global_invariant(bool b);
void __function_wide_invariant(bool b);
void __global_assert(bool b);
bool __implies(bool a, bool b);
int __other_int(int x);
bool __other_bool(bool x);
bool __uniform_int(int x);
bool __uniform_bool(bool x);
bool __distinct_int(int x);
bool __distinct_bool(bool x);
bool __all(bool x);
bool __exclusive(bool x);
bool __enabled(void);
/* GPUVerify's OpenCL spelling has no parentheses: `__implies(__same_group, ...)`. */
bool __gpug_same_group(void);
#define __same_group __gpug_same_group()
#define __same_block __gpug_same_group()
bool __GPUG_OV __add_noovfl(int a, int b);
bool __GPUG_OV __add_noovfl(unsigned int a, unsigned int b);
bool __GPUG_OV __add_noovfl(int a, int b, int c);
bool __GPUG_OV __add_noovfl(unsigned int a, unsigned int b, unsigned int c);
int __add_noovfl_int(int a, int b);
unsigned int __add_noovfl_unsigned_int(unsigned int a, unsigned int b);
int __return_val_int(void);
bool __return_val_bool(void);
int __old_int(int x);
void __candidate_invariant(bool b);
void __candidate_global_invariant(bool b);
void __function_wide_candidate_invariant(bool b);
int __ite(bool c, int a, int b);
int __mod_pow2(int x, int y);

/* Barrier invariants and `__read_permission` (shared with CUDA's annotations). */
#define __GPUG_BI_DEV
#define __GPUG_BI_LONG long
#include "gpug_barrier_invariants.h"
/* The annotations over a pointer, once per address space. */
#define __GPUG_PTR_ANNOTATIONS(AS) \
  bool __GPUG_OV __read(const volatile AS void *p); \
  bool __GPUG_OV __write(const volatile AS void *p); \
  bool __GPUG_OV __atomic(const volatile AS void *p); \
  bool __GPUG_OV __no_read(const volatile AS void *p); \
  bool __GPUG_OV __no_write(const volatile AS void *p); \
  bool __GPUG_OV __read_implies(const volatile AS void *p, bool b); \
  bool __GPUG_OV __write_implies(const volatile AS void *p, bool b); \
  unsigned long __GPUG_OV __read_offset_bytes(const volatile AS void *p); \
  unsigned long __GPUG_OV __write_offset_bytes(const volatile AS void *p); \
  unsigned long __GPUG_OV __ptr_offset_bytes(const volatile AS void *p); \
  bool __GPUG_OV __requires_fresh_array(const volatile AS void *p); \
  void __GPUG_OV __array_snapshot(const volatile AS void *dst, const volatile AS void *src);
__GPUG_PTR_ANNOTATIONS(__global)
__GPUG_PTR_ANNOTATIONS(__local)
__GPUG_PTR_ANNOTATIONS(__constant)
__GPUG_PTR_ANNOTATIONS(__private)


/* `__axiom(e);` at file scope: a function returning `e`, assumed on entry to every kernel
   (src/frontend/lower/annotation.rs). */
#define __GPUG_CAT2(a, b) a##b
#define __GPUG_CAT(a, b) __GPUG_CAT2(a, b)
#define __axiom(e) \
  static bool __GPUG_CAT(__gpug_axiom_, __COUNTER__)(void) { return (e); }
#define __array_size(p) 0

#endif
