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
/* Barrier invariants (paper 001, GPUVerify's spelling): `__barrier_invariant_N(e, i1, ..., iN)`
 * instantiated at the N thread expressions, `__barrier_invariant_binary_N(e, i1, j1, ...)` at N
 * pairs; just before the barrier they belong to (src/encode/pair/invariants.rs). */
__device__ void __barrier_invariant_1(bool e, long long i1);
__device__ void __barrier_invariant_2(bool e, long long i1, long long i2);
__device__ void __barrier_invariant_3(bool e, long long i1, long long i2, long long i3);
__device__ void __barrier_invariant_4(bool e, long long i1, long long i2, long long i3, long long i4);
__device__ void __barrier_invariant_5(bool e, long long i1, long long i2, long long i3, long long i4, long long i5);
__device__ void __barrier_invariant_6(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6);
__device__ void __barrier_invariant_7(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7);
__device__ void __barrier_invariant_8(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8);
__device__ void __barrier_invariant_9(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9);
__device__ void __barrier_invariant_10(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10);
__device__ void __barrier_invariant_11(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11);
__device__ void __barrier_invariant_12(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12);
__device__ void __barrier_invariant_13(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13);
__device__ void __barrier_invariant_14(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14);
__device__ void __barrier_invariant_15(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15);
__device__ void __barrier_invariant_16(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16);
__device__ void __barrier_invariant_17(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17);
__device__ void __barrier_invariant_18(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18);
__device__ void __barrier_invariant_19(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19);
__device__ void __barrier_invariant_20(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19, long long i20);
__device__ void __barrier_invariant_21(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19, long long i20, long long i21);
__device__ void __barrier_invariant_22(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19, long long i20, long long i21, long long i22);
__device__ void __barrier_invariant_23(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19, long long i20, long long i21, long long i22, long long i23);
__device__ void __barrier_invariant_24(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19, long long i20, long long i21, long long i22, long long i23, long long i24);
__device__ void __barrier_invariant_25(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19, long long i20, long long i21, long long i22, long long i23, long long i24, long long i25);
__device__ void __barrier_invariant_26(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19, long long i20, long long i21, long long i22, long long i23, long long i24, long long i25, long long i26);
__device__ void __barrier_invariant_27(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19, long long i20, long long i21, long long i22, long long i23, long long i24, long long i25, long long i26, long long i27);
__device__ void __barrier_invariant_28(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19, long long i20, long long i21, long long i22, long long i23, long long i24, long long i25, long long i26, long long i27, long long i28);
__device__ void __barrier_invariant_29(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19, long long i20, long long i21, long long i22, long long i23, long long i24, long long i25, long long i26, long long i27, long long i28, long long i29);
__device__ void __barrier_invariant_30(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19, long long i20, long long i21, long long i22, long long i23, long long i24, long long i25, long long i26, long long i27, long long i28, long long i29, long long i30);
__device__ void __barrier_invariant_31(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19, long long i20, long long i21, long long i22, long long i23, long long i24, long long i25, long long i26, long long i27, long long i28, long long i29, long long i30, long long i31);
__device__ void __barrier_invariant_32(bool e, long long i1, long long i2, long long i3, long long i4, long long i5, long long i6, long long i7, long long i8, long long i9, long long i10, long long i11, long long i12, long long i13, long long i14, long long i15, long long i16, long long i17, long long i18, long long i19, long long i20, long long i21, long long i22, long long i23, long long i24, long long i25, long long i26, long long i27, long long i28, long long i29, long long i30, long long i31, long long i32);
__device__ void __barrier_invariant_binary_1(bool e, long long i1, long long j1);
__device__ void __barrier_invariant_binary_2(bool e, long long i1, long long j1, long long i2, long long j2);
__device__ void __barrier_invariant_binary_3(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3);
__device__ void __barrier_invariant_binary_4(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3, long long i4, long long j4);
__device__ void __barrier_invariant_binary_5(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3, long long i4, long long j4, long long i5, long long j5);
__device__ void __barrier_invariant_binary_6(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3, long long i4, long long j4, long long i5, long long j5, long long i6, long long j6);
__device__ void __barrier_invariant_binary_7(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3, long long i4, long long j4, long long i5, long long j5, long long i6, long long j6, long long i7, long long j7);
__device__ void __barrier_invariant_binary_8(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3, long long i4, long long j4, long long i5, long long j5, long long i6, long long j6, long long i7, long long j7, long long i8, long long j8);
__device__ void __barrier_invariant_binary_9(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3, long long i4, long long j4, long long i5, long long j5, long long i6, long long j6, long long i7, long long j7, long long i8, long long j8, long long i9, long long j9);
__device__ void __barrier_invariant_binary_10(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3, long long i4, long long j4, long long i5, long long j5, long long i6, long long j6, long long i7, long long j7, long long i8, long long j8, long long i9, long long j9, long long i10, long long j10);
__device__ void __barrier_invariant_binary_11(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3, long long i4, long long j4, long long i5, long long j5, long long i6, long long j6, long long i7, long long j7, long long i8, long long j8, long long i9, long long j9, long long i10, long long j10, long long i11, long long j11);
__device__ void __barrier_invariant_binary_12(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3, long long i4, long long j4, long long i5, long long j5, long long i6, long long j6, long long i7, long long j7, long long i8, long long j8, long long i9, long long j9, long long i10, long long j10, long long i11, long long j11, long long i12, long long j12);
__device__ void __barrier_invariant_binary_13(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3, long long i4, long long j4, long long i5, long long j5, long long i6, long long j6, long long i7, long long j7, long long i8, long long j8, long long i9, long long j9, long long i10, long long j10, long long i11, long long j11, long long i12, long long j12, long long i13, long long j13);
__device__ void __barrier_invariant_binary_14(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3, long long i4, long long j4, long long i5, long long j5, long long i6, long long j6, long long i7, long long j7, long long i8, long long j8, long long i9, long long j9, long long i10, long long j10, long long i11, long long j11, long long i12, long long j12, long long i13, long long j13, long long i14, long long j14);
__device__ void __barrier_invariant_binary_15(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3, long long i4, long long j4, long long i5, long long j5, long long i6, long long j6, long long i7, long long j7, long long i8, long long j8, long long i9, long long j9, long long i10, long long j10, long long i11, long long j11, long long i12, long long j12, long long i13, long long j13, long long i14, long long j14, long long i15, long long j15);
__device__ void __barrier_invariant_binary_16(bool e, long long i1, long long j1, long long i2, long long j2, long long i3, long long j3, long long i4, long long j4, long long i5, long long j5, long long i6, long long j6, long long i7, long long j7, long long i8, long long j8, long long i9, long long j9, long long i10, long long j10, long long i11, long long j11, long long i12, long long j12, long long i13, long long j13, long long i14, long long j14, long long i15, long long j15, long long i16, long long j16);
#define __GPUG_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, N, ...) N
#define __GPUG_NARGS(...) __GPUG_NARGS_(__VA_ARGS__, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define __GPUG_BI_CAT2(a, b) a##b
#define __GPUG_BI_CAT(a, b) __GPUG_BI_CAT2(a, b)
#define __barrier_invariant(e, ...) __GPUG_BI_CAT(__barrier_invariant_, __GPUG_NARGS(__VA_ARGS__))(e, __VA_ARGS__)
#define __barrier_invariant_binary(e, ...) __GPUG_BI_CAT(__gpug_bib_, __GPUG_NARGS(__VA_ARGS__))(e, __VA_ARGS__)
#define __gpug_bib_2(...) __barrier_invariant_binary_1(__VA_ARGS__)
#define __gpug_bib_4(...) __barrier_invariant_binary_2(__VA_ARGS__)
#define __gpug_bib_6(...) __barrier_invariant_binary_3(__VA_ARGS__)
#define __gpug_bib_8(...) __barrier_invariant_binary_4(__VA_ARGS__)
#define __gpug_bib_10(...) __barrier_invariant_binary_5(__VA_ARGS__)
#define __gpug_bib_12(...) __barrier_invariant_binary_6(__VA_ARGS__)
#define __gpug_bib_14(...) __barrier_invariant_binary_7(__VA_ARGS__)
#define __gpug_bib_16(...) __barrier_invariant_binary_8(__VA_ARGS__)
#define __gpug_bib_18(...) __barrier_invariant_binary_9(__VA_ARGS__)
#define __gpug_bib_20(...) __barrier_invariant_binary_10(__VA_ARGS__)
#define __gpug_bib_22(...) __barrier_invariant_binary_11(__VA_ARGS__)
#define __gpug_bib_24(...) __barrier_invariant_binary_12(__VA_ARGS__)
#define __gpug_bib_26(...) __barrier_invariant_binary_13(__VA_ARGS__)
#define __gpug_bib_28(...) __barrier_invariant_binary_14(__VA_ARGS__)
#define __gpug_bib_30(...) __barrier_invariant_binary_15(__VA_ARGS__)
#define __gpug_bib_32(...) __barrier_invariant_binary_16(__VA_ARGS__)
/* `__read_permission(T, x)`: a read of `x` (GPUVerify's permission to read it in the barrier
 * invariants of this barrier interval): an ordinary read, race-checked. */
__device__ void __gpug_read_permission(long long x);
#define __read_permission(T, x) __gpug_read_permission((long long)(x))
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
